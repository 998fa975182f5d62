// FLAGS: -fplugin=%plugin -mllvm -enzyme-strong-zero
// -enzyme-strong-zero (Enzyme's option): a term partial x seed is 0 where
// the seed is 0, even where the partial is infinite. asin at 1 and atanh
// near its pole have infinite slopes; with a zero tangent (forward) or a
// zero adjoint (reverse, the result multiplied by 0) the other inputs'
// derivatives stay finite. Without the option forward mode gives NaN
// here, as Enzyme does by default. Away from those points the option
// changes nothing (checked against central differences).
// LEVELS: O0 O1 O2 O3
#include "check.h"

double asin_plus(double x, double y) { return asin(x) + y * y; }
double scaled_asin(double x, double y) { return y * asin(x) + y; }
double log_plus(double x, double y) { return log(x) + y; }

typedef struct { double a, b; } d2;
d2 __enzyme_autodiff_d2(void *, ...) __asm__("__enzyme_autodiff");

int main(void) {
  const double t = 1e-12;
  CHECK("asin+y^2 fwd dy at x = 1", __enzyme_fwddiff((void *)asin_plus, 1.0, 0.0, 2.0, 1.0), 4.0, t);
  CHECK("log+y fwd dy at x = 0", __enzyme_fwddiff((void *)log_plus, 0.0, 0.0, 2.0, 1.0), 1.0, t);
  d2 r = __enzyme_autodiff_d2((void *)scaled_asin, 1.0, 0.0);
  CHECK("y asin(x) + y rev dx at (1, 0)", r.a, 0.0, t);
  CHECK("y asin(x) + y rev dy at (1, 0)", r.b, asin(1.0) + 1.0, t);
  double x = 0.3, y = 1.7;
  r = __enzyme_autodiff_d2((void *)scaled_asin, x, y);
  CHECK("rev dx", r.a, FD(x, scaled_asin(x, y), 1e-6), 1e-8);
  CHECK("rev dy", r.b, FD(y, scaled_asin(x, y), 1e-6), 1e-8);
  CHECK("fwd dx", __enzyme_fwddiff((void *)scaled_asin, x, 1.0, y, 0.0),
        FD(x, scaled_asin(x, y), 1e-6), 1e-8);
  return check_failures != 0;
}
