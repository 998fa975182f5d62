// Reverse and forward: functions called through constant tables of
// function pointers, indexed by a constant integer argument and by the
// loop counter; a table of {name, function} structs; a void callee that
// writes through a pointer.
#include "check.h"
typedef double (*unop)(double);
static double sq(double x) { return x * x; }
static double cube(double x) { return x * x * x; }
static double sn(double x) { return sin(x); }
static const unop table[3] = {sq, cube, sn};
double apply(const double *x, int n, int which) {
  double s = table[which](x[0]);
  for (int i = 0; i < n; i++) s += table[i % 3](x[i]);
  return s;
}
static void scale2(double *p, double a) { *p *= 2 * a; }
static void addsq(double *p, double a) { *p += a * a; }
static const struct {
  const char *name;
  void (*op)(double *, double);
} ops[2] = {{"scale2", scale2}, {"addsq", addsq}};
double run_ops(double a, int k) {
  double acc = 1.0;
  for (int i = 0; i < 4; i++) ops[(i + k) % 2].op(&acc, a);
  return acc;
}
int main(void) {
  double x[5] = {0.5, 1.2, -0.7, 2.0, 0.1};
  for (int which = 0; which < 3; which++) {
    double dx[5] = {0};
    __enzyme_autodiff((void *)apply, enzyme_dup, x, dx, enzyme_const, 5, enzyme_const, which);
    double d0[3] = {2 * x[0], 3 * x[0] * x[0], cos(x[0])};
    CHECK("dx0", dx[0], d0[which] + 2 * x[0], 1e-12);
    CHECK("dx1", dx[1], 3 * x[1] * x[1], 1e-12);
    CHECK("dx2", dx[2], cos(x[2]), 1e-12);
    CHECK("dx3", dx[3], 2 * x[3], 1e-12);
    CHECK("dx4", dx[4], 3 * x[4] * x[4], 1e-12);
    double t[5] = {1, 0, 0, 0, 0}, t0 = __enzyme_fwddiff((void *)apply, enzyme_dup, x, t, enzyme_const, 5,
                                                         enzyme_const, which);
    CHECK("fwd dx0", t0, dx[0], 1e-12);
  }
  for (int k = 0; k < 2; k++) {
    double a = 0.7;
    double d = __enzyme_autodiff((void *)run_ops, a, k);
    CHECK("run_ops", d, FD(a, run_ops(a, k), 1e-6), 1e-6);
    CHECK("run_ops fwd", __enzyme_fwddiff((void *)run_ops, a, 1.0, k), d, 1e-12);
  }
  CHECK_DONE();
}
