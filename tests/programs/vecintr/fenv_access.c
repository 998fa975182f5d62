// Constrained floating point from `#pragma STDC FENV_ACCESS ON`: every
// operation is an llvm.experimental.constrained.* call (fadd, fsub, fmul,
// fdiv, fmuladd, fptrunc, fpext, sitofp, fptosi, fcmp, and the math
// builtins' sqrt, fma, fmax, fmod) in a strictfp function; the derivative has the
// unconstrained operation's and is itself constrained (lit/vecintr checks
// its shape). Forward, vector forward (enzyme_width 2) and reverse mode,
// against analytic derivatives and central finite differences, also with
// the rounding mode set upward around the calls.
// LEVELS: O0 O1 O2 O3
#pragma STDC FENV_ACCESS ON
#include "check.h"
#include <fenv.h>

double f(double x, double y) {
  double a = x * y / (x + y) - x / 3.0;
  long n = (long)(y * 4.0);                /* fptosi: no derivative */
  double b = a * (double)n + x * y;        /* sitofp */
  double s = __builtin_sqrt(x * x + 1.0) + __builtin_fma(x, y, 2.0 * y);
  double r = x > y ? b - s : b + s;        /* fcmp */
  return r * r + __builtin_fmax(x, -y) + __builtin_fmod(x * 7.0, 2.0);
}

/* fptrunc and fpext: derivative 1 (a float's adjoint is a float: checked
 * to float precision). */
double fcast(double x) {
  float xf = (float)x;
  return (double)(xf * xf) + x;
}

/* A loop over an array, a reduction and a division in each step. */
void g(const double *x, double *out, int n) {
  double acc = 1.0;
  for (int i = 0; i < n; i++) {
    acc = acc * x[i] + x[i] / (1.0 + x[i] * x[i]);
    out[i] = acc;
  }
}

static double df_dx(double x, double y) {
  double a = x * y / (x + y) - x / 3.0;
  double da = (y * (x + y) - x * y) / ((x + y) * (x + y)) - 1.0 / 3.0;
  long n = (long)(y * 4.0);
  double b = a * (double)n + x * y, db = da * (double)n + y;
  double q = __builtin_sqrt(x * x + 1.0);
  double s = q + __builtin_fma(x, y, 2.0 * y), ds = x / q + y;
  double r = x > y ? b - s : b + s, dr = x > y ? db - ds : db + ds;
  return 2 * r * dr + (x >= -y ? 1.0 : 0.0) + 7.0;
}

typedef struct { double a, b; } d2;
extern d2 __enzyme_fwddiff_2(void *, ...);
extern d2 __enzyme_autodiff_2(void *, ...);

static void run(const char *mode) {
  printf("-- %s\n", mode);
  double pts[3][2] = {{0.7, 1.3}, {1.9, 0.4}, {0.3, 2.2}};
  for (int p = 0; p < 3; p++) {
    double x = pts[p][0], y = pts[p][1];
    double want = df_dx(x, y);
    double fd = FD(x, f(x, y), 1e-7);
    double d = __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, y);
    CHECK("fwd df/dx", d, want, 1e-12);
    CHECK("fwd fd", d, fd, 1e-5);
    double r = __enzyme_autodiff((void *)f, x, enzyme_const, y);
    CHECK("rev df/dx", r, want, 1e-12);
    d2 both = __enzyme_autodiff_2((void *)f, x, y);
    CHECK("rev both dx", both.a, want, 1e-12);
    CHECK("rev both dy fd", both.b, FD(y, f(x, y), 1e-7), 1e-5);
    d2 w = __enzyme_fwddiff_2((void *)f, enzyme_width, 2, x, 1.0, 2.0, enzyme_const, y);
    CHECK("fwd2 lane0", w.a, want, 1e-12);
    CHECK("fwd2 lane1", w.b, 2 * want, 1e-12);
  }
  for (double x = -1.5; x < 2; x += 0.75) {
    double want = 2 * (float)x + 1;
    CHECK("fcast fwd", __enzyme_fwddiff((void *)fcast, x, 1.0), want, 1e-6);
    CHECK("fcast rev", __enzyme_autodiff((void *)fcast, x), want, 1e-6);
  }
  double x[5] = {0.5, -0.3, 1.2, 0.8, -1.1}, out[5], dout[5] = {0, 0, 0, 0, 1}, dx[5] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_dupnoneed, out, dout, enzyme_const, 5);
  for (int i = 0; i < 5; i++) {
    double t[5] = {0}, dt[5];
    t[i] = 1;
    __enzyme_fwddiff((void *)g, enzyme_dup, x, t, enzyme_dup, out, dt, enzyme_const, 5);
    double fd = FD(x[i], (g(x, out, 5), out[4]), 1e-7);
    CHECK("g rev", dx[i], fd, 1e-6);
    CHECK("g fwd", dt[4], dx[i], 1e-12);
  }
}

int main(void) {
  run("round to nearest");
  if (fesetround(FE_UPWARD) == 0) {
    run("round upward");
    fesetround(FE_TONEAREST);
  }
  CHECK_DONE();
}
