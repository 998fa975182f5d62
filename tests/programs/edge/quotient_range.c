// The derivative of x / y for |y| far from 1: the partials are applied as
// a division of the seed by y, so no y * y is formed (it overflows for
// |y| > 1e154 and underflows for |y| < 1e-154 although x / y and its
// derivatives are representable), and a zero seed gives a zero term
// where -x / y^2 itself overflows. Forward, vector forward, reverse and
// second-order (forward over forward, forward over reverse), against the
// analytic values. Enzyme's Integration/ForwardMode/div_range.c asks the
// same of forward mode.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include "returns.h"

double quot(double x, double y) { return x / y; }
double dq_dx(double x, double y) { return __enzyme_fwddiff((void *)quot, x, 1.0, y, 0.0); }
double dq_dy(double x, double y) { return __enzyme_fwddiff((void *)quot, x, 0.0, y, 1.0); }
double d2q_dy2(double x, double y) { return __enzyme_fwddiff((void *)dq_dy, x, 0.0, y, 1.0); }
double d2q_dxdy(double x, double y) { return __enzyme_fwddiff((void *)dq_dx, x, 0.0, y, 1.0); }

// The reverse gradient's y component, then differentiated forward in y.
double grad_y(double x, double y) { return __enzyme_autodiff_d2((void *)quot, x, y).b; }

// A chain of divisions by a tiny denominator: out = ((x / y) / y) * y * y.
double chain(double x, double y) { return ((x / y) / y) * y * y; }

int main(void) {
  const double t = 1e-12;
  double y = 1e160;
  CHECK("dq/dx * y, y = 1e160", dq_dx(2.0, y) * y, 1.0, t);
  CHECK("dq/dy * y, x = y = 1e160", dq_dy(y, y) * y, -1.0, t);
  y = 1e-160;
  CHECK("dq/dx * y, y = 1e-160", dq_dx(2.0, y) * y, 1.0, t);
  CHECK("dq/dy * y / x, y = 1e-160", dq_dy(1e-170, y) * y / 1e-10, -1.0, t);
  y = 1e80;
  CHECK("d2q/dy2 * y^3 / 2x, y = 1e80", d2q_dy2(1.0, y) * (y * y) * y, 2.0, t);
  CHECK("d2q/dxdy * y^2, y = 1e80", d2q_dxdy(1.0, y) * y * y, -1.0, t);
  y = 1e160;
  d2 r = __enzyme_autodiff_d2((void *)quot, y, y);
  CHECK("rev dx * y, y = 1e160", r.a * y, 1.0, t);
  CHECK("rev dy * y, x = y = 1e160", r.b * y, -1.0, t);
  y = 1e-160;
  r = __enzyme_autodiff_d2((void *)quot, 2.0, y);
  CHECK("rev dx * y, y = 1e-160", r.a * y, 1.0, t);
  y = 1e80;
  CHECK("fwd over rev d2/dy2, y = 1e80",
        __enzyme_fwddiff((void *)grad_y, 1.0, 0.0, y, 1.0) * (y * y) * y, 2.0, t);
  y = 1e-160;
  v2 v = __enzyme_fwddiff_v2((void *)quot, enzyme_width, 2, 2.0, 1.0, 0.0, y, 0.0, 1.0);
  CHECK("vfwd lane0 * y", v.d[0] * y, 1.0, t);
  CHECK("vfwd lane1 is -inf (-2 / y^2)", v.d[1] == -INFINITY, 1.0, 0.0);
  // Ordinary values, against central differences.
  double x = 0.7;
  y = -1.3;
  r = __enzyme_autodiff_d2((void *)quot, x, y);
  CHECK("rev dx", r.a, FD(x, quot(x, y), 1e-6), 1e-8);
  CHECK("rev dy", r.b, FD(y, quot(x, y), 1e-6), 1e-8);
  CHECK("fwd dy", dq_dy(x, y), FD(y, quot(x, y), 1e-6), 1e-8);
  r = __enzyme_autodiff_d2((void *)chain, x, y);
  CHECK("chain rev dx", r.a, 1.0, 1e-12);
  CHECK("chain rev dy", r.b, 0.0, 1e-12);
  y = 1e-120;
  CHECK("chain fwd dx, y = 1e-120", __enzyme_fwddiff((void *)chain, x, 1.0, y, 0.0), 1.0, 1e-12);
  return check_failures != 0;
}
