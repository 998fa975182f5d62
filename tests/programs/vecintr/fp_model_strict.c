// Constrained floating point from -ffp-model=strict (dynamic rounding,
// strict exceptions: every operation constrained, libm calls kept as
// calls): arithmetic with libm functions (sin, exp, log, pow, sqrt,
// hypot), a float function, and a loop over arrays, in forward mode and
// reverse mode, against analytic derivatives and central finite
// differences; the derivatives stay constrained (no plain floating-point
// operation in the strictfp derivative).
// FLAGS: -ffp-model=strict
// LEVELS: O0 O1 O2 O3
#include "check.h"

double f(double x, double y) {
  return sin(x * y) + exp(x - y) * log(1.0 + x * x) + pow(x, y) + sqrt(x + y) / hypot(x, y);
}

float ff(float x) { return x * x * x / (1.0f + x * x) - 2.0f * x; }

/* out[i] = x[i] * (prefix sum of x up to i): the derivative of sum(out). */
double prefix(const double *x, int n) {
  double s = 0, t = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    t += x[i] * s;
  }
  return t;
}

static double fx(double x, double y) {
  double h = hypot(x, y);
  return y * cos(x * y) + exp(x - y) * log(1.0 + x * x) + exp(x - y) * 2 * x / (1.0 + x * x) +
         y * pow(x, y - 1) + (0.5 / sqrt(x + y)) / h - sqrt(x + y) * x / (h * h * h);
}

int main(void) {
  double pts[3][2] = {{0.7, 1.3}, {1.9, 0.4}, {0.3, 2.2}};
  for (int p = 0; p < 3; p++) {
    double x = pts[p][0], y = pts[p][1];
    double want = fx(x, y);
    CHECK("fwd", __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, y), want, 1e-12);
    CHECK("rev", __enzyme_autodiff((void *)f, x, enzyme_const, y), want, 1e-12);
    CHECK("fd", want, FD(x, f(x, y), 1e-6), 1e-6);
    CHECK("rev dy fd", __enzyme_autodiff((void *)f, enzyme_const, x, y), FD(y, f(x, y), 1e-6),
          1e-6);
  }
  for (float x = -1.5f; x < 2; x += 0.5f) {
    double want = 3.0 * x * x / (1.0 + x * x) - 2.0 * x * x * x * x / ((1.0 + x * x) * (1.0 + x * x)) - 2.0;
    float d = __enzyme_fwddiff((void *)ff, x, 1.0f);
    float r = __enzyme_autodiff((void *)ff, x);
    CHECK("float fwd", d, want, 1e-5);
    CHECK("float rev", r, want, 1e-5);
  }
  double x[6] = {0.5, -0.3, 1.2, 0.8, -1.1, 0.4}, dx[6] = {0};
  __enzyme_autodiff((void *)prefix, enzyme_dup, x, dx, enzyme_const, 6);
  for (int i = 0; i < 6; i++) {
    double t[6] = {0};
    t[i] = 1;
    double d = __enzyme_fwddiff((void *)prefix, enzyme_dup, x, t, enzyme_const, 6);
    /* d/dx_i sum_j x_j s_j = s_i + sum_{j >= i} x_j */
    double s = 0, tail = 0;
    for (int j = 0; j <= i; j++) s += x[j];
    for (int j = i; j < 6; j++) tail += x[j];
    CHECK("prefix rev", dx[i], s + tail, 1e-12);
    CHECK("prefix fwd", d, s + tail, 1e-12);
  }
  CHECK_DONE();
}
