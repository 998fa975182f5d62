// Reverse: LU decomposition with partial pivoting in place (row swaps
// chosen by fabs comparisons), then log|det|; d log|det A| / dA = A^-T.
#include "check.h"
__attribute__((noinline)) double logdet(double *A, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(A[i * n + k]) > fabs(A[p * n + k])) p = i;
    if (p != k)
      for (int j = 0; j < n; j++) {
        double t = A[k * n + j];
        A[k * n + j] = A[p * n + j];
        A[p * n + j] = t;
      }
    for (int i = k + 1; i < n; i++) {
      double l = A[i * n + k] / A[k * n + k];
      A[i * n + k] = l;
      for (int j = k + 1; j < n; j++) A[i * n + j] -= l * A[k * n + j];
    }
    s += log(fabs(A[k * n + k]));
  }
  return s;
}
static double logdet_copy(const double *A0, int n) {
  double A[16];
  for (int i = 0; i < n * n; i++) A[i] = A0[i];
  return logdet(A, n);
}
int main(void) {
  enum { N = 4 };
  double A0[N * N] = {0.5, 2.0, -1.0, 0.3, 1.5, 0.2, 0.7, -0.8, -2.0, 0.4, 0.1, 1.2, 0.6, -1.1, 2.2, 0.9};
  double A[N * N], dA[N * N] = {0};
  for (int i = 0; i < N * N; i++) A[i] = A0[i];
  __enzyme_autodiff((void *)logdet, enzyme_dup, A, dA, enzyme_const, N);
  for (int i = 0; i < N * N; i++) CHECK("dA fd", dA[i], FD(A0[i], logdet_copy(A0, N), 1e-6), 1e-6);
  /* analytic: (A^-T)_ij, checked as sum_k dA_ik A_jk = delta_ij */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += dA[i * N + k] * A0[j * N + k];
      CHECK("A^-T A^T = I", s, i == j, 1e-10);
    }
  CHECK_DONE();
}
