// Reverse: a variable-length array declared inside a loop body (a stack
// allocation per iteration), passed to a noinline callee that fills it,
// then reduced; the data-dependent stride comes from an int array.
#include "check.h"
__attribute__((noinline)) static void fill(double *t, const double *x, int m, int off) {
  for (int j = 0; j < m; j++) t[j] = x[off + j] * x[off + j] - x[off];
}
__attribute__((noinline)) double f(const double *x, const int *step, int k) {
  double s = 0;
  int off = 0;
  for (int i = 0; i < k; i++) {
    int m = step[i];
    double t[m];
    fill(t, x, m, off);
    for (int j = 0; j < m; j++) s += t[j] * (j + 1) * (i + 1);
    off += m;
  }
  return s;
}
int main(void) {
  double x[9] = {0.3, -0.5, 1.2, 0.8, -1.1, 0.4, 0.9, -0.2, 0.6}, dx[9] = {0};
  int step[3] = {2, 4, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, step, enzyme_const, 3);
  for (int i = 0; i < 9; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, step, 3), 1e-6), 1e-6);
  CHECK_DONE();
}
