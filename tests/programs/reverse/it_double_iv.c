// Reverse: a loop whose induction variable is a double (trapezoidal
// integration of exp(-a t^2) cos(b t) over [0, 1]); the trip count comes
// from a floating comparison.
#include "check.h"
double trap(double a, double b) {
  double h = 0.01, s = 0;
  for (double t = 0.0; t < 1.0 - 1e-9; t += h) {
    double f0 = exp(-a * t * t) * cos(b * t);
    double f1 = exp(-a * (t + h) * (t + h)) * cos(b * (t + h));
    s += 0.5 * h * (f0 + f1);
  }
  return s;
}
typedef struct { double da, db; } D2;
D2 __enzyme_autodiff_t(void *, ...);
int main(void) {
  double a = 0.7, b = 2.1;
  D2 d = __enzyme_autodiff_t((void *)trap, enzyme_out, a, enzyme_out, b);
  CHECK("da fd", d.da, FD(a, trap(a, b), 1e-6), 1e-7);
  CHECK("db fd", d.db, FD(b, trap(a, b), 1e-6), 1e-7);
  /* the exact integral derivatives (trapezoid error ~1e-5) */
  double ia = 0, ib = 0;
  for (int k = 0; k < 100000; k++) {
    double t = (k + 0.5) / 100000.0;
    ia += -t * t * exp(-a * t * t) * cos(b * t) / 100000.0;
    ib += -t * exp(-a * t * t) * sin(b * t) / 100000.0;
  }
  CHECK("da ~", d.da, ia, 1e-3);
  CHECK("db ~", d.db, ib, 1e-3);
  CHECK_DONE();
}
