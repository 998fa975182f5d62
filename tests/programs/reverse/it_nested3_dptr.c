// Reverse: three nested loops with runtime bounds over a double** matrix
// (trace(A^3)); rows are separate heap allocations with shadows.
#include "check.h"
__attribute__((noinline)) double trace3(double **A, int n) {
  double t = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) t += A[i][j] * A[j][k] * A[k][i];
  return t;
}
int main(int argc, char **argv) {
  (void)argv;
  int n = 3 + argc; /* runtime bound: 4 */
  double **A = malloc(n * sizeof(double *)), **dA = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    A[i] = malloc(n * sizeof(double));
    dA[i] = calloc(n, sizeof(double));
    for (int j = 0; j < n; j++) A[i][j] = 0.1 * (i + 1) - 0.2 * j + 0.05 * i * j;
  }
  __enzyme_autodiff((void *)trace3, enzyme_dup, A, dA, enzyme_const, n);
  for (int p = 0; p < n; p++)
    for (int q = 0; q < n; q++) {
      /* d tr(A^3)/dA_pq = 3 (A^2)_qp */
      double a2 = 0;
      for (int k = 0; k < n; k++) a2 += A[q][k] * A[k][p];
      CHECK("dA", dA[p][q], 3 * a2, 1e-12);
      CHECK("dA fd", dA[p][q], FD(A[p][q], trace3(A, n), 1e-6), 1e-6);
    }
  for (int i = 0; i < n; i++) free(A[i]), free(dA[i]);
  free(A), free(dA);
  CHECK_DONE();
}
