// Reverse mode: C = A B in a malloc'd buffer, loss = sum C_ij^2 / 2.
#include "check.h"
double loss(const double *A, const double *B, int n) {
  double *C = (double *)calloc(n * n, sizeof(double));
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++) C[i * n + j] += A[i * n + k] * B[k * n + j];
  double l = 0;
  for (int i = 0; i < n * n; i++) l += 0.5 * C[i] * C[i];
  free(C);
  return l;
}
int main(void) {
  enum { N = 3 };
  double A[N * N], B[N * N], dA[N * N] = {0}, dB[N * N] = {0};
  for (int i = 0; i < N * N; i++) { A[i] = sin(i + 0.5); B[i] = cos(0.3 * i); }
  __enzyme_autodiff((void *)loss, A, dA, B, dB, N);
  for (int i = 0; i < N * N; i++) {
    CHECK("dA fd", dA[i], FD(A[i], loss(A, B, N), 1e-6), 1e-6);
    CHECK("dB fd", dB[i], FD(B[i], loss(A, B, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
