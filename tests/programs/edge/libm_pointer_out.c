// libm functions that return through pointers (a compile error before):
// GNU sincos(x, &s, &c) and modf(x, &ip), double and float. Their calls in
// a differentiated function go to bodies the rules cover (modes/libm_out.rs);
// the values the gradient's primal sweep writes must be libm's own (modf's
// signed zero, its infinity), and the derivatives are checked against the
// analytic ones and central differences in reverse, forward and vector
// forward modes, in a loop over arrays and with the outputs' adjoints
// seeded directly.
// LEVELS: O0 O1 O2 O3
#define _GNU_SOURCE
#include "check.h"
#include "returns.h"

double sc(double x) {
  double s, c;
  sincos(x, &s, &c);
  return s * 2.0 + c * c;
}
float scf(float x) {
  float s, c;
  sincosf(x, &s, &c);
  return s * c;
}
double mf(double x) {
  double ip;
  double f = modf(x * x, &ip);
  return f * 3.0 + ip * 0.5;
}
// out[3 i..3 i+2] = sin, cos, frac of x[i]; whole[i] = its integer part.
void table(const double *x, double *out, double *whole, int n) {
  for (int i = 0; i < n; i++) {
    sincos(x[i], &out[3 * i], &out[3 * i + 1]);
    out[3 * i + 2] = modf(x[i], &whole[i]);
  }
}
float sc_f(float x) { return scf(x); }

int main(void) {
  double x = 0.7;
  double want = 2 * cos(x) - 2 * cos(x) * sin(x);
  CHECK("sincos rev", __enzyme_autodiff((void *)sc, x), want, 1e-12);
  CHECK("sincos fwd", __enzyme_fwddiff((void *)sc, x, 1.0), want, 1e-12);
  CHECK("sincos FD", __enzyme_autodiff((void *)sc, x), FD(x, sc(x), 1e-6), 1e-8);
  v2 v = __enzyme_fwddiff_v2((void *)sc, enzyme_width, 2, x, 1.0, 2.0);
  CHECK("sincos vfwd lane1", v.d[1], 2 * want, 1e-12);
  CHECK("sincosf rev", __enzyme_autodiff_f((void *)sc_f, 0.7f), cosf(1.4f), 1e-6);
  x = 1.3;
  CHECK("modf(x^2) rev", __enzyme_autodiff((void *)mf, x), 3 * 2 * x, 1e-12);
  CHECK("modf(x^2) fwd", __enzyme_fwddiff((void *)mf, x, 1.0), 3 * 2 * x, 1e-12);
  CHECK("modf(x^2) FD", __enzyme_autodiff((void *)mf, x), FD(x, mf(x), 1e-7), 1e-6);

  double xs[5] = {0.25, -2.0, 3.5, -0.75, INFINITY}, dx[5] = {0};
  double out[15], dout[15], whole[5], dwhole[5];
  for (int i = 0; i < 15; i++) dout[i] = 1.0 + (i % 3);
  for (int i = 0; i < 5; i++) dwhole[i] = 5.0;
  __enzyme_autodiff((void *)table, enzyme_dup, xs, dx, enzyme_dup, out, dout, enzyme_dup, whole,
                    dwhole, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    char name[64];
    double ip, fr = modf(xs[i], &ip);
    snprintf(name, sizeof name, "table primal %d", i);
    CHECK(name,
          out[3 * i] == sin(xs[i]) && out[3 * i + 1] == cos(xs[i]) && out[3 * i + 2] == fr &&
              signbit(out[3 * i + 2]) == signbit(fr) && whole[i] == ip,
          1, 0);
    snprintf(name, sizeof name, "table dx[%d]", i);
    CHECK(name, dx[i], cos(xs[i]) * 1.0 - sin(xs[i]) * 2.0 + 3.0, 1e-12);
  }
  // modf of an infinity, in the differentiated code: frac +-0, whole +-inf.
  double one[1] = {-INFINITY}, done[1] = {0}, o3[3], do3[3] = {0}, w1[1], dw1[1] = {0};
  __enzyme_autodiff((void *)table, enzyme_dup, one, done, enzyme_dup, o3, do3, enzyme_dup, w1, dw1,
                    enzyme_const, 1);
  CHECK("modf(-inf) frac is -0", o3[2] == 0 && signbit(o3[2]), 1, 0);
  CHECK("modf(-inf) whole", w1[0] == -INFINITY, 1, 0);
  return check_failures != 0;
}
