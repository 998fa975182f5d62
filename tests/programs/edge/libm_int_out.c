// libm functions that also return an int through a pointer (which had no
// rule: a compile error): lgamma_r(x, &sign) (the reentrant lgamma; d/dx
// is digamma(x), the sign of gamma(x) still stored) and remquo(x, y, &q)
// (remainder(x, y), low bits of the quotient in q): double and float,
// reverse, forward and vector forward, against the analytic partials and
// central differences; the int outputs must be libm's.
// LEVELS: O0 O1 O2 O3
#define _GNU_SOURCE
#include "check.h"
#include "returns.h"

static int last_sign, last_quo;

double lg(double x) {
  int s;
  double v = lgamma_r(x * x - 0.5, &s);
  last_sign = s;
  return v * x;
}
float lgf(float x) {
  int s;
  return lgammaf_r(x, &s) * (float)s;
}
double rq(double x, double y) {
  int q;
  double r = remquo(x, y, &q);
  last_quo = q;
  return r * x;
}
float rqf(float x, float y) {
  int q;
  return remquof(x, y, &q);
}

// digamma by central differences of lgamma (for the analytic check).
static double psi(double z) { return (lgamma(z + 1e-6) - lgamma(z - 1e-6)) / 2e-6; }

int main(void) {
  double xs[] = {1.7, 0.9, 2.5, 0.3};
  for (int k = 0; k < 4; k++) {
    double x = xs[k], z = x * x - 0.5;
    char name[64];
    int s;
    double v = lgamma_r(z, &s);
    double want = v + x * psi(z) * 2 * x;
    snprintf(name, sizeof name, "lgamma_r(x^2-0.5) x=%g rev", x);
    CHECK(name, __enzyme_autodiff((void *)lg, x), want, 1e-6);
    CHECK("lgamma_r sign kept", last_sign, s, 0);
    snprintf(name, sizeof name, "lgamma_r x=%g fwd", x);
    CHECK(name, __enzyme_fwddiff((void *)lg, x, 1.0), want, 1e-6);
    snprintf(name, sizeof name, "lgamma_r x=%g FD", x);
    CHECK(name, __enzyme_autodiff((void *)lg, x), FD(x, lg(x), 1e-6), 1e-6);
  }
  // A negative argument: gamma(-0.5) < 0, so the float version's result
  // is -lgamma (sign -1) and its slope -digamma(-0.5).
  CHECK("lgammaf_r(-0.5) rev", __enzyme_autodiff_f((void *)lgf, -0.5f), -psi(-0.5), 1e-3);
  CHECK("lgammaf_r(2.5) rev", __enzyme_autodiff_f((void *)lgf, 2.5f), psi(2.5), 1e-3);

  double pts[][2] = {{7.3, 2.0}, {-7.3, 2.0}, {6.9, -2.0}, {11.0, 4.5}};
  for (int k = 0; k < 4; k++) {
    double x = pts[k][0], y = pts[k][1];
    int q;
    double n = rint(x / y), r0 = remquo(x, y, &q);
    char name[64];
    d2 r = __enzyme_autodiff_d2((void *)rq, x, y);
    snprintf(name, sizeof name, "remquo(%g, %g) dx", x, y);
    CHECK(name, r.a, r0 + x, 1e-12);
    CHECK("remquo quotient kept", last_quo, q, 0);
    snprintf(name, sizeof name, "remquo(%g, %g) dy", x, y);
    CHECK(name, r.b, -n * x, 1e-12);
    snprintf(name, sizeof name, "remquo(%g, %g) dy FD", x, y);
    CHECK(name, r.b, FD(y, rq(x, y), 1e-7), 1e-6);
    v2 v = __enzyme_fwddiff_v2((void *)rq, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
    snprintf(name, sizeof name, "remquo(%g, %g) vfwd", x, y);
    CHECK(name, fabs(v.d[0] - (r0 + x)) + fabs(v.d[1] + n * x), 0.0, 1e-12);
  }
  f2 rf = __enzyme_autodiff_f2((void *)rqf, 7.5f, 2.0f);
  CHECK("remquof(7.5, 2) dx", rf.a, 1.0, 0);
  CHECK("remquof(7.5, 2) dy (n = 4, ties to even)", rf.b, -4.0, 0);
  return check_failures != 0;
}
