// Active data in a global array accessed at constant indices (`g[1]`, a
// constant address expression in the IR, after unrolling at -O2): forward
// and reverse mode, static and external globals, through a callee.
#include "check.h"
double ext[4];
static double loc[3];
__attribute__((noinline)) static double use(void) {
  return ext[0] * ext[1] * ext[2] + ext[3] + loc[0] * loc[2] - loc[1];
}
double f(const double *x) {
  for (int i = 0; i < 4; i++) ext[i] = x[i];
  loc[0] = x[0] * x[3];
  loc[1] = sin(x[1]);
  loc[2] = ext[2] * 2;
  double r = use();
  ext[1] = ext[2] * 4;
  return r * use();
}
int main(void) {
  double x[4] = { 0.3, -0.7, 0.9, 0.4 }, dx[4] = { 0 };
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  for (int j = 0; j < 4; j++) {
    double fd = FD(x[j], f(x), 1e-6);
    CHECK("rev", dx[j], fd, 1e-6);
    double t[4] = { 0 };
    t[j] = 1;
    CHECK("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, x, t), fd, 1e-6);
  }
  CHECK_DONE();
}
