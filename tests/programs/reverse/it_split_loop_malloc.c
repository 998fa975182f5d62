// Split reverse mode: __enzyme_augmentfwd then __enzyme_reverse on a
// function with a loop, a malloc'd temporary and an overwritten input;
// the tape carries what the reverse needs between the two calls.
#include "check.h"
__attribute__((noinline)) double f(double *x, int n) {
  double *t = (double *)malloc(n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) {
    t[i] = x[i] * x[i];
    x[i] = sin(x[i]); /* overwritten */
  }
  for (int i = 0; i < n; i++) s += t[i] * x[i];
  free(t);
  return s;
}
int main(void) {
  enum { N = 5 };
  double x0[N] = {0.3, -0.8, 1.2, 0.5, 2.0}, x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = x0[i];
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) CHECK("x overwritten", x[i], sin(x0[i]), 1e-15);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_const, N, 1.0, tape);
  for (int i = 0; i < N; i++) {
    double v = x0[i];
    CHECK("dx", dx[i], 2 * v * sin(v) + v * v * cos(v), 1e-12);
  }
  CHECK_DONE();
}
