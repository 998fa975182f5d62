// A counted loop: polynomial evaluation by Horner's rule.
#include "check.h"
double horner(const double *c, int n, double x) {
  double r = 0;
  for (int i = n - 1; i >= 0; i--) r = r * x + c[i];
  return r;
}
int main(void) {
  double c[5] = {1, -2, 0.5, 3, -1};
  double x = 1.3;
  double d = __enzyme_fwddiff((void *)horner, enzyme_const, c, 5, x, 1.0);
  double a = 0;
  for (int i = 1; i < 5; i++) a += i * c[i] * pow(x, i - 1);
  CHECK("dp/dx", d, a, 1e-12);
  CHECK("dp/dx fd", d, FD(x, horner(c, 5, x), 1e-6), 1e-6);
  /* derivative with respect to the coefficients (shadow array) */
  double dc[5] = {0, 0, 1, 0, 0};
  double dcoef = __enzyme_fwddiff((void *)horner, enzyme_dup, c, dc, 5, enzyme_const, x);
  CHECK("dp/dc2", dcoef, x * x, 1e-12);
  CHECK("dp/dc2 fd", dcoef, FD(c[2], horner(c, 5, x), 1e-6), 1e-6);
  CHECK_DONE();
}
