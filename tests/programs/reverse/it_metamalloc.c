// Reverse: a malloc'd array of malloc'd rows built inside the function,
// filled from the input, reduced, and freed (shadow pointers stored into
// shadow memory).
#include "check.h"
__attribute__((noinline)) double meta(const double *x, int n) {
  double **rows = (double **)malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    rows[i] = (double *)malloc((i + 1) * sizeof(double));
    for (int j = 0; j <= i; j++) rows[i][j] = x[i] * x[j];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) s += rows[i][j] * (i == j ? 1.0 : 2.0);
  for (int i = 0; i < n; i++) free(rows[i]);
  free(rows);
  return s; /* (sum x)^2 */
}
int main(void) {
  double x[5] = {0.5, -1.0, 2.0, 0.25, 1.5}, dx[5] = {0};
  __enzyme_autodiff((void *)meta, enzyme_dup, x, dx, enzyme_const, 5);
  double sum = 0;
  for (int i = 0; i < 5; i++) sum += x[i];
  for (int i = 0; i < 5; i++) {
    CHECK("dx", dx[i], 2 * sum, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], meta(x, 5), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
