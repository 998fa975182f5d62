// int <-> float casts: (int)x has zero derivative; an integer converted to
// double is constant; the double part still carries the tangent.
#include "check.h"
double f(double x, int n) {
  int k = (int)(x * 10.0);      /* fptosi: piecewise constant */
  double kd = (double)k;        /* sitofp */
  double nd = (double)n;
  unsigned u = (unsigned)(x * 3.0); /* fptoui */
  return kd * 0.1 + nd * x * x + (double)u + x;
}
int main(void) {
  double x = 1.234;
  int n = 3;
  double d = __enzyme_fwddiff((void *)f, x, 1.0, n);
  CHECK("df/dx", d, n * 2 * x + 1, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x, n), 1e-7), 1e-5);
  double d2 = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, 5);
  CHECK("df/dx n=5", d2, 5 * 2 * x + 1, 1e-12);
  CHECK_DONE();
}
