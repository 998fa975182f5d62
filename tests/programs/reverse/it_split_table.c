// Split reverse mode (__enzyme_augmentfwd / __enzyme_reverse) of a
// function that calls through a constant table of functions in a loop and
// overwrites its input; the tape carries the dispatch's values.
#include "check.h"
typedef double (*op_t)(double, double);
static double op_mul(double a, double b) { return a * b; }
static double op_hyp(double a, double b) { return sqrt(a * a + b * b); }
static double op_sin(double a, double b) { return sin(a) + b; }
static const op_t ops[3] = {op_mul, op_hyp, op_sin};
__attribute__((noinline)) double f(double *x, const int *which, int n) {
  double acc = 1.0;
  for (int i = 0; i < n; i++) {
    acc = ops[which[i]](acc, x[i]);
    x[i] = acc; /* overwritten */
  }
  return acc;
}
int main(void) {
  enum { N = 6 };
  int which[N] = {0, 1, 2, 0, 2, 1};
  double x0[N] = {0.5, 1.2, -0.3, 0.8, 0.4, -1.1}, x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = x0[i];
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_const, which, enzyme_const, N);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_const, which, enzyme_const, N, 1.0, tape);
  for (int i = 0; i < N; i++) {
    double xp[N];
    for (int k = 0; k < N; k++) xp[k] = x0[k];
    xp[i] += 1e-6;
    double fp = f(xp, which, N);
    for (int k = 0; k < N; k++) xp[k] = x0[k];
    xp[i] -= 1e-6;
    double fm = f(xp, which, N);
    CHECK("dx fd", dx[i], (fp - fm) / 2e-6, 1e-6);
  }
  CHECK_DONE();
}
