// pow (both operands active) and powi (__builtin_powi, integer exponent).
#include "check.h"
double f_pow(double x, double y) { return pow(x, y); }
double f_powi(double x, int n) { return __builtin_powi(x, n); }
double f_square(double x) { return pow(x, 2.0); }
int main(void) {
  double x = 1.8, y = 2.6;
  double dx = __enzyme_fwddiff((void *)f_pow, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f_pow, x, 0.0, y, 1.0);
  CHECK("pow dx", dx, y * pow(x, y - 1), 1e-12);
  CHECK("pow dy", dy, pow(x, y) * log(x), 1e-12);
  CHECK("pow dx fd", dx, FD(x, f_pow(x, y), 1e-6), 1e-6);
  CHECK("pow dy fd", dy, FD(y, f_pow(x, y), 1e-6), 1e-6);
  for (int n = -3; n <= 5; n++) {
    double d = __enzyme_fwddiff((void *)f_powi, x, 1.0, n);
    CHECK("powi", d, n * pow(x, n - 1), 1e-12);
    CHECK("powi fd", d, FD(x, f_powi(x, n), 1e-6), 1e-6);
  }
  double ds = __enzyme_fwddiff((void *)f_square, x, 1.0);
  CHECK("pow(x,2)", ds, 2 * x, 1e-12);
  CHECK_DONE();
}
