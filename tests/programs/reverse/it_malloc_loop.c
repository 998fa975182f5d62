// Reverse: a temporary buffer malloc'd and freed in every iteration of a
// loop, holding active values read later in the same iteration.
#include "check.h"
__attribute__((noinline)) double f(const double *x, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *t = (double *)malloc(m * sizeof(double));
    for (int j = 0; j < m; j++) t[j] = x[i] * (j + 1) + x[(i + j) % n];
    double p = 1;
    for (int j = 0; j < m; j++) p *= t[j];
    s += sqrt(fabs(p)) + t[m - 1];
    free(t);
  }
  return s;
}
int main(void) {
  double x[4] = {0.4, 1.3, 0.7, 2.2}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4, enzyme_const, 3);
  for (int i = 0; i < 4; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 4, 3), 1e-6), 1e-6);
  CHECK_DONE();
}
