// remainder and nextafter (which had no rule: a compile error), each
// against central differences and the analytic partials, double and float,
// reverse, forward and vector forward: remainder(x, y) = x - n y with n =
// x / y rounded to nearest, ties to even; nextafter(x, y) moves with x.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include "returns.h"

double rem(double x, double y) { return remainder(x, y) * x; }
float remf(float x, float y) { return remainderf(x, y); }
double nxt(double x, double y) { return nextafter(x * x, y); }


int main(void) {
  double pts[][2] = {{7.3, 2.0}, {-7.3, 2.0}, {6.9, -2.0}, {0.4, 3.0}, {11.0, 4.5}};
  for (int k = 0; k < 5; k++) {
    double x = pts[k][0], y = pts[k][1];
    double n = rint(x / y), r0 = remainder(x, y);
    char name[64];
    d2 r = __enzyme_autodiff_d2((void *)rem, x, y);
    snprintf(name, sizeof name, "rem(%g, %g) dx", x, y);
    CHECK(name, r.a, r0 + x, 1e-12);
    snprintf(name, sizeof name, "rem(%g, %g) dy", x, y);
    CHECK(name, r.b, -n * x, 1e-12);
    snprintf(name, sizeof name, "rem(%g, %g) dx FD", x, y);
    CHECK(name, r.a, FD(x, rem(x, y), 1e-7), 1e-6);
    snprintf(name, sizeof name, "rem(%g, %g) dy FD", x, y);
    CHECK(name, r.b, FD(y, rem(x, y), 1e-7), 1e-6);
    snprintf(name, sizeof name, "rem(%g, %g) fwd dy", x, y);
    CHECK(name, __enzyme_fwddiff((void *)rem, x, 0.0, y, 1.0), -n * x, 1e-12);
    v2 v = __enzyme_fwddiff_v2((void *)rem, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
    snprintf(name, sizeof name, "rem(%g, %g) vfwd", x, y);
    CHECK(name, fabs(v.d[0] - (r0 + x)) + fabs(v.d[1] + n * x), 0.0, 1e-12);
  }
  f2 rf = __enzyme_autodiff_f2((void *)remf, 7.5f, 2.0f);
  CHECK("remainderf(7.5, 2) dx", rf.a, 1.0, 0);
  CHECK("remainderf(7.5, 2) dy (n = 4, ties to even)", rf.b, -4.0, 0);
  d2 r = __enzyme_autodiff_d2((void *)nxt, 1.5, 10.0);
  CHECK("nextafter(x^2, 10) dx", r.a, 3.0, 1e-12);
  CHECK("nextafter(x^2, 10) dy", r.b, 0.0, 0);
  CHECK("nextafter fwd", __enzyme_fwddiff((void *)nxt, 1.5, 1.0, 10.0, 0.0), 3.0, 1e-12);
  return check_failures != 0;
}
