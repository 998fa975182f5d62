// Mutual recursion over doubles with an active depth-dependent result.
#include "check.h"
double odd_f(double x, int n);
double even_f(double x, int n) { return n == 0 ? x : sin(odd_f(x, n - 1)); }
double odd_f(double x, int n) { return x * even_f(x, n - 1) + 1.0; }
double ref(double x, int n, double *dout) {
  /* forward recursion by hand */
  double v = x, dv = 1;
  for (int k = 1; k <= n; k++) {
    if (k % 2 == 1) { dv = dv * x + v; v = x * v + 1.0; }
    else { dv = cos(v) * dv; v = sin(v); }
  }
  *dout = dv;
  return v;
}
int main(void) {
  double x = 0.6, want;
  ref(x, 6, &want);
  double d = __enzyme_fwddiff((void *)even_f, x, 1.0, 6);
  CHECK("d even_f", d, want, 1e-12);
  CHECK("d even_f fd", d, FD(x, even_f(x, 6), 1e-6), 1e-6);
  CHECK_DONE();
}
