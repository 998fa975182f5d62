// enzyme_dupnoneed: the tangent is computed; the primal output need not be.
#include "check.h"
void f(double x, double *out) { *out = x * x + sin(x); }
double g(double x) { return x * exp(x); }
int main(void) {
  double x = 0.9, out = 0, dout = 0;
  __enzyme_fwddiff((void *)f, x, 1.0, enzyme_dupnoneed, &out, &dout);
  CHECK("dout", dout, 2 * x + cos(x), 1e-12);
  double tmp;
  CHECK("dout fd", dout, FD(x, (f(x, &tmp), tmp), 1e-6), 1e-6);
  double d = __enzyme_fwddiff((void *)g, enzyme_dupnoneed, x, 1.0);
  CHECK("dg", d, exp(x) * (1 + x), 1e-12);
  CHECK_DONE();
}
