// Reverse: many libm functions in one active expression, each partial
// compared with a central finite difference and a closed form.
#include "check.h"
typedef struct { double dx, dy; } D2;
D2 __enzyme_autodiff_2(void *, double, double);
double f(double x, double y) {
  int e;
  double m = frexp(x, &e);          /* x = m 2^e, dm/dx = 2^-e */
  double r = ldexp(m, 2) + fabs(y) * copysign(x, -1.0);
  r += fmod(x * 3, 1.0) + cbrt(y) + hypot(x, y) + atan2(y, x);
  r += erf(x * y) + lgamma(x + 2) + tgamma(y + 1) + expm1(x) + log1p(y * y);
  r += pow(x, 3) + __builtin_powi(y, 4) + pow(x, -2);
  return r;
}
int main(void) {
  double x = 1.3, y = 0.6;
  D2 d = __enzyme_autodiff_2((void *)f, x, y);
  CHECK("dx fd", d.dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK("dy fd", d.dy, FD(y, f(x, y), 1e-6), 1e-6);
  int e;
  frexp(x, &e);
  double h = hypot(x, y);
  double wdx = 4 * ldexp(1, -e) - fabs(y) + 3 + x / h - y / (h * h) + 2 * y / sqrt(M_PI) * exp(-x * x * y * y) +
               /* digamma(x+2) via fd of lgamma */ (lgamma(x + 2 + 1e-6) - lgamma(x + 2 - 1e-6)) / 2e-6 +
               exp(x) + 3 * x * x - 2 * pow(x, -3);
  double wdy = x * -1 + 1.0 / (3 * cbrt(y * y)) + y / h + x / (h * h) + 2 * x / sqrt(M_PI) * exp(-x * x * y * y) +
               (tgamma(y + 1 + 1e-6) - tgamma(y + 1 - 1e-6)) / 2e-6 + 2 * y / (1 + y * y) + 4 * y * y * y;
  CHECK("dx", d.dx, wdx, 1e-7);
  CHECK("dy", d.dy, wdy, 1e-7);
  CHECK_DONE();
}
