// Calls through a local function pointer whose target is known (clang -O0
// keeps them indirect).
#include "check.h"
static double sq(double x) { return x * x * sin(x); }
double f(double x) {
  double (*fp)(double) = sq;
  return fp(x) + 2 * fp(x * 0.5);
}
int main(void) {
  double x = 0.8;
  CHECK("reverse", __enzyme_autodiff((void *)f, x), FD(x, f(x), 1e-6), 1e-6);
  CHECK("forward", __enzyme_fwddiff((void *)f, x, 1.0), FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
