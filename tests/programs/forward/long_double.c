// long double (x86_fp80) math: sinl, expl, sqrtl, powl, fabsl.
#include "check.h"
long double g(long double x) { return sinl(x) * expl(x) + sqrtl(x) * x + powl(x, 2.5L) + fabsl(x); }
long double __enzyme_fwddiff_ld(void *, long double, long double);
int main(void) {
  long double x = 0.8L;
  long double d = __enzyme_fwddiff_ld((void *)g, x, 1.0L);
  double want = cos(0.8) * exp(0.8) + sin(0.8) * exp(0.8) + 1.5 * sqrt(0.8) + 2.5 * pow(0.8, 1.5) + 1;
  CHECK("d", (double)d, want, 1e-12);
  double xd = 0.8;
  CHECK("d fd", (double)d, FD(xd, (double)g(xd), 1e-6), 1e-6);
  CHECK_DONE();
}
