// Reverse mode: recursive power and recursive sum.
#include "check.h"
double rpow(double x, int n) {
  if (n == 0) return 1;
  if (n % 2 == 0) { double h = rpow(x, n / 2); return h * h; }
  return x * rpow(x, n - 1);
}
double rsum(const double *x, int n) {
  if (n == 0) return 0;
  return x[n - 1] * x[n - 1] * x[n - 1] + rsum(x, n - 1);
}
int main(void) {
  double x = 1.1;
  for (int n = 0; n < 9; n++) {
    double d = __enzyme_autodiff((void *)rpow, x, n);
    CHECK("drpow", d, n == 0 ? 0 : n * pow(x, n - 1), 1e-12);
  }
  double v[5] = {1, 2, -1, 0.5, 3}, dv[5] = {0};
  __enzyme_autodiff((void *)rsum, v, dv, 5);
  for (int i = 0; i < 5; i++) CHECK("drsum", dv[i], 3 * v[i] * v[i], 1e-12);
  CHECK_DONE();
}
