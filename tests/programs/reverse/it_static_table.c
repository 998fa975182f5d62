// Reverse: a static local array used as scratch (written with active
// values, read back) and a static const coefficient table in a callee.
#include "check.h"
__attribute__((noinline)) static double poly5(double t) {
  static const double c[6] = {1.0, -0.5, 0.25, -0.125, 0.0625, -0.03125};
  double r = 0;
  for (int k = 5; k >= 0; k--) r = r * t + c[k];
  return r;
}
double f(const double *x, int n) {
  static double scratch[8];
  for (int i = 0; i < n; i++) scratch[i] = poly5(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += scratch[i] * scratch[(i + 1) % n];
  return s;
}
int main(void) {
  double x[4] = {0.2, -0.7, 1.1, 0.5}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 4), 1e-6), 1e-6);
  double dx2[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx2, enzyme_const, 4);
  for (int i = 0; i < 4; i++) CHECK("dx again", dx2[i], dx[i], 1e-15);
  CHECK_DONE();
}
