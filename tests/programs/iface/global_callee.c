// A callee with no arguments and no result that moves derivatives between
// globals (u = p * p, both written from the differentiated function's
// input) must still be differentiated: before, enzyme-rs skipped it as
// inactive and the gradient silently lost the path through it.
#include "check.h"
static double u[2], p[2];
__attribute__((noinline)) static void square_into_u(void) {
  for (int k = 0; k < 2; k++) u[k] = p[k] * p[k];
}
static void via_temp(void) {
  double t[2];
  for (int k = 0; k < 2; k++) t[k] = p[k] * p[k];
  for (int k = 0; k < 2; k++) u[k] = t[k];
}
static double f(const double *x) {
  for (int k = 0; k < 2; k++) {
    u[k] = 0;
    p[k] = x[k];
  }
  square_into_u();
  double s = 0;
  for (int k = 0; k < 2; k++) s += u[k] * u[k] * p[k];
  return s;
}
static double g(const double *x) {
  for (int k = 0; k < 2; k++) p[k] = x[k];
  via_temp();
  via_temp();
  double s = 0;
  for (int k = 0; k < 2; k++) s += u[k] * u[k] * p[k];
  return s;
}
int main(void) {
  double x[2] = {0.3, -0.2}, d[2] = {0}, dg[2] = {0}, v[2] = {1, 2};
  __enzyme_autodiff((void *)f, enzyme_dup, x, d);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dg);
  for (int k = 0; k < 2; k++) {
    CHECK("reverse", d[k], 5 * pow(x[k], 4), 1e-12);
    CHECK("reverse, temp", dg[k], 5 * pow(x[k], 4), 1e-12);
  }
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, v);
  CHECK("forward", t, 5 * pow(x[0], 4) + 2 * 5 * pow(x[1], 4), 1e-12);
  CHECK_DONE();
}
