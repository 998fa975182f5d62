// LEVELS: O1 O2 O3
// (-O0: clang 16 cannot code-generate llvm.canonicalize for x86 at -O0
// at all, with or without the plugin.)
// llvm.canonicalize (__builtin_canonicalize: the same number, a signaling
// NaN quieted) has the identity's derivative, in reverse and forward mode.
#include "check.h"
static double f(double x) { return __builtin_canonicalize(x) * sin(x) + __builtin_canonicalize(x * x); }
int main(void) {
  double x = 0.7;
  double want = sin(x) + x * cos(x) + 2 * x;
  CHECK("reverse", __enzyme_autodiff((void *)f, x), want, 1e-12);
  CHECK("forward", __enzyme_fwddiff((void *)f, x, 1.0), want, 1e-12);
  CHECK("fd", want, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
