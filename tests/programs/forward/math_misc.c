// expm1, log1p, cbrt, hypot, erf.
#include "check.h"
double f_expm1(double x) { return expm1(2 * x); }
double f_log1p(double x) { return log1p(x * x); }
double f_cbrt(double x) { return cbrt(x); }
double f_erf(double x) { return erf(x); }
double f_hypot(double x, double y) { return hypot(x, y); }
#define T CHECK_FWD1
int main(void) {
  double x = 0.45;
  T(f_expm1, x, 2 * exp(2 * x));
  T(f_log1p, x, 2 * x / (1 + x * x));
  T(f_cbrt, x, 1.0 / (3.0 * cbrt(x * x)));
  T(f_cbrt, -2.0, 1.0 / (3.0 * cbrt(4.0)));
  T(f_erf, x, 2 / sqrt(M_PI) * exp(-x * x));
  double a = 3.0, b = -4.0;
  double da = __enzyme_fwddiff((void *)f_hypot, a, 1.0, b, 0.0);
  double db = __enzyme_fwddiff((void *)f_hypot, a, 0.0, b, 1.0);
  CHECK("hypot da", da, 0.6, 1e-12);
  CHECK("hypot db", db, -0.8, 1e-12);
  CHECK("hypot fd", db, FD(b, f_hypot(a, b), 1e-6), 1e-6);
  CHECK_DONE();
}
