// Reverse: an array of row pointers grown with realloc while rows are
// malloc'd and filled from the input; the shadow array must keep the
// shadow row pointers across each realloc.
#include "check.h"
__attribute__((noinline)) double f(const double *x, int n) {
  int cap = 1, len = 0;
  double **rows = (double **)malloc(cap * sizeof(double *));
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      rows = (double **)realloc(rows, cap * sizeof(double *));
    }
    double *r = (double *)malloc(2 * sizeof(double));
    r[0] = x[i] * x[i];
    r[1] = sin(x[i]) * x[(i + 1) % n];
    rows[len++] = r;
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += rows[i][0] * rows[len - 1 - i][1];
  for (int i = 0; i < len; i++) free(rows[i]);
  free(rows);
  return s;
}
int main(void) {
  double x[6] = {0.4, -0.9, 1.3, 0.2, -0.5, 0.8}, dx[6] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 6);
  for (int i = 0; i < 6; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 6), 1e-6), 1e-6);
  CHECK_DONE();
}
