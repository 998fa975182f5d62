// Reverse mode: Horner evaluation of a polynomial; derivative w.r.t. x and
// all coefficients (coefficient gradient = powers of x).
#include "check.h"
double horner(const double *c, int n, double x) {
  double r = 0;
  for (int i = n - 1; i >= 0; i--) r = r * x + c[i];
  return r;
}
int main(void) {
  double c[5] = {1, -2, 0.5, 3, -0.25}, dc[5] = {0}, x = 1.3;
  double dx = __enzyme_autodiff((void *)horner, enzyme_dup, c, dc, enzyme_const, 5, enzyme_out, x);
  double want = 0;
  for (int i = 1; i < 5; i++) want += i * c[i] * pow(x, i - 1);
  CHECK("dx", dx, want, 1e-12);
  for (int i = 0; i < 5; i++) CHECK("dc", dc[i], pow(x, i), 1e-12);
  CHECK_DONE();
}
