// __enzyme_set_fixed_point at the start of a loop body marks a fixed-point
// iteration (as a Fortran !$enzyme fixed_point directive lowers). The loop
// carries locals (the error, an iteration count) from one iteration to
// the next and tests in its header; another tests at its end. The gradient
// must equal the gradient of the same loop without the marker, and finite
// differences of the converged solution.
#include "check.h"
#include <enzyme/fixed_point.h>
#define N 4
static double u[N], p[N];
__attribute__((noinline)) static void iterate(void) {
  double t[N];
  for (int k = 0; k < N; k++) t[k] = 0.2 * sin(u[k] + u[(k + 1) % N]) + p[k] * p[k];
  for (int k = 0; k < N; k++) u[k] = t[k];
}
static double loss(void) {
  double s = 0;
  for (int k = 0; k < N; k++) s += u[k] * u[k] * p[k];
  return s;
}
static void setup(const double *x) {
  for (int k = 0; k < N; k++) {
    u[k] = 0;
    p[k] = x[k];
  }
}
static double change(const double *old) {
  double e = 0;
  for (int k = 0; k < N; k++) e = fmax(e, fabs(u[k] - old[k]));
  return e;
}
// Tested in the header (a while loop).
static double marked(const double *x) {
  setup(x);
  double err = 1, old[N];
  int iters = 0;
  while (err > 1e-14 && iters < 200) {
    __enzyme_set_fixed_point(1e-28, -1, 0, u, sizeof(u));
    for (int k = 0; k < N; k++) old[k] = u[k];
    iterate();
    err = change(old);
    iters++;
  }
  return loss();
}
// Tested at its end (do-while), with a control function and a reduction.
static int control(double *cumul, double *r) { return *cumul < 0 || *cumul > 1e-20; }
static double marked_do(const double *x) {
  setup(x);
  double err, old[N];
  do {
    __enzyme_set_fixed_point(1e-14, 500, (void *)control, u, sizeof(u));
    for (int k = 0; k < N; k++) old[k] = u[k];
    iterate();
    err = change(old);
  } while (err > 1e-14);
  return loss();
}
static double plain(const double *x) {
  setup(x);
  double err = 1, old[N];
  int iters = 0;
  while (err > 1e-14 && iters < 200) {
    for (int k = 0; k < N; k++) old[k] = u[k];
    iterate();
    err = change(old);
    iters++;
  }
  return loss();
}
int main(void) {
  double x[N] = {0.3, -0.2, 0.5, 0.1}, dm[N] = {0}, dd[N] = {0}, dp[N] = {0};
  __enzyme_autodiff((void *)marked, enzyme_dup, x, dm);
  __enzyme_autodiff((void *)marked_do, enzyme_dup, x, dd);
  __enzyme_autodiff((void *)plain, enzyme_dup, x, dp);
  for (int k = 0; k < N; k++) {
    CHECK("marked = plain", dm[k], dp[k], 1e-10);
    CHECK("marked do = plain", dd[k], dp[k], 1e-10);
    CHECK("marked fd", dm[k], FD(x[k], marked(x), 1e-6), 1e-6);
  }
  CHECK("primal", marked(x), plain(x), 1e-14);
  CHECK_DONE();
}
