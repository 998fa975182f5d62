// Reverse: read-write-read through a double** (rows overwritten in place
// in a doubly nested loop and read again in the same and later
// iterations), with a runtime row length per row.
#include "check.h"
__attribute__((noinline)) double rwrmeta(double **A, const int *len, int n) {
  double out = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < len[i]; j++) {
      A[i][j] = A[i][j] * A[i][j] + (j ? A[i][j - 1] : 0.0);
      out += A[i][j] * (i + 1);
    }
  for (int i = 0; i < n; i++) out += A[i][len[i] - 1] * A[i][0];
  return out;
}
static double wrap(double **A0, const int *len, int n) {
  double r0[8], r1[8], r2[8], *A[3] = {r0, r1, r2};
  for (int i = 0; i < n; i++)
    for (int j = 0; j < len[i]; j++) A[i][j] = A0[i][j];
  return rwrmeta(A, len, n);
}
int main(void) {
  int len[3] = {3, 1, 4};
  double a0[3] = {0.5, -0.3, 0.8}, a1[1] = {1.1}, a2[4] = {0.2, 0.4, -0.6, 0.9};
  double *A0[3] = {a0, a1, a2};
  double c0[3], c1[1], c2[4], *A[3] = {c0, c1, c2};
  double d0[3] = {0}, d1[1] = {0}, d2[4] = {0}, *dA[3] = {d0, d1, d2};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < len[i]; j++) A[i][j] = A0[i][j];
  __enzyme_autodiff((void *)rwrmeta, enzyme_dup, A, dA, enzyme_const, len, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < len[i]; j++) CHECK("dA fd", dA[i][j], FD(A0[i][j], wrap(A0, len, 3), 1e-6), 1e-6);
  CHECK_DONE();
}
