// FLAGS: -fplugin=%plugin -mllvm -enzyme-strong-zero
// -enzyme-strong-zero (Enzyme's option): a term partial x seed is 0 where
// the seed is 0, even where the partial is infinite. A product whose other
// factor overflowed (b = y * 1e308 * 10 = inf) inside 1 / (1 + x * b):
// the reverse sweep meets the adjoint -0 with the partial b = inf, NaN
// without the option (as in Enzyme by default), 0 with it. asin at 1 and
// log at 0 (infinite slopes) with a zero tangent give finite derivatives
// for the other inputs with or without the option (their rules check the
// seed always: rules::checks_zero_seed). Away from those points the option
// changes nothing (checked against central differences).
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include "returns.h"

double asin_plus(double x, double y) { return asin(x) + y * y; }
double scaled_asin(double x, double y) { return y * asin(x) + y; }
double log_plus(double x, double y) { return log(x) + y; }
double overflowed(double x, double y) { return 1.0 / (1.0 + x * (y * 1e308 * 10.0)); }


int main(void) {
  const double t = 1e-12;
  CHECK("asin+y^2 fwd dy at x = 1", __enzyme_fwddiff((void *)asin_plus, 1.0, 0.0, 2.0, 1.0), 4.0, t);
  CHECK("log+y fwd dy at x = 0", __enzyme_fwddiff((void *)log_plus, 0.0, 0.0, 2.0, 1.0), 1.0, t);
  d2 r = __enzyme_autodiff_d2((void *)scaled_asin, 1.0, 0.0);
  CHECK("y asin(x) + y rev dx at (1, 0)", r.a, 0.0, t);
  CHECK("y asin(x) + y rev dy at (1, 0)", r.b, asin(1.0) + 1.0, t);
  r = __enzyme_autodiff_d2((void *)overflowed, 1.0, 1.0);
  CHECK("1/(1+x inf) rev dx", r.a, 0.0, t);
  CHECK("1/(1+x inf) rev dy", r.b, 0.0, t);
  double x = 0.3, y = 1.7;
  r = __enzyme_autodiff_d2((void *)scaled_asin, x, y);
  CHECK("rev dx", r.a, FD(x, scaled_asin(x, y), 1e-6), 1e-8);
  CHECK("rev dy", r.b, FD(y, scaled_asin(x, y), 1e-6), 1e-8);
  CHECK("fwd dx", __enzyme_fwddiff((void *)scaled_asin, x, 1.0, y, 0.0),
        FD(x, scaled_asin(x, y), 1e-6), 1e-8);
  return check_failures != 0;
}
