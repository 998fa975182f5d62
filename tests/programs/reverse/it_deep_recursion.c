// Reverse: a recursion 20000 calls deep (one tape segment per call),
// each level reading its own element and the result of the next.
#include "check.h"
__attribute__((noinline)) static double deep(const double *x, int i, int n) {
  if (i == n) return 0.0;
  double r = deep(x, i + 1, n);
  return sin(x[i]) + 0.5 * r * cos(0.001 * i) + 1e-3 * x[i] * r;
}
double f(const double *x, int n) { return deep(x, 0, n); }
int main(void) {
  enum { N = 20000 };
  double *x = malloc(N * sizeof(double)), *dx = calloc(N, sizeof(double));
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.0001 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  int idx[4] = {0, 1, 7, 100};
  for (int k = 0; k < 4; k++) {
    int i = idx[k];
    CHECK("dx fd", dx[i], FD(x[i], f(x, N), 1e-6), 1e-6);
  }
  free(x);
  free(dx);
  CHECK_DONE();
}
