// Recursion: power by repeated squaring, and a factorial-like product.
#include "check.h"
double rpow(double x, int n) {
  if (n == 0) return 1.0;
  if (n % 2 == 0) {
    double h = rpow(x, n / 2);
    return h * h;
  }
  return x * rpow(x, n - 1);
}
/* prod_{k=0}^{n-1} (x + k) */
double rising(double x, int n) { return n <= 0 ? 1.0 : (x + n - 1) * rising(x, n - 1); }
int main(void) {
  double x = 1.1;
  for (int n = 0; n <= 9; n++) {
    double d = __enzyme_fwddiff((void *)rpow, x, 1.0, n);
    CHECK("rpow", d, n * pow(x, n - 1), 1e-12);
    CHECK("rpow fd", d, FD(x, rpow(x, n), 1e-6), 1e-6);
  }
  int n = 5;
  double d = __enzyme_fwddiff((void *)rising, x, 1.0, n);
  double p = rising(x, n), want = 0;
  for (int k = 0; k < n; k++) want += p / (x + k);
  CHECK("rising", d, want, 1e-12);
  CHECK("rising fd", d, FD(x, rising(x, n), 1e-6), 1e-6);
  CHECK_DONE();
}
