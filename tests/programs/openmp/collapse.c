// FLAGS: -fopenmp
// THREADS: 1 2 4
// collapse(2) over a 2-D grid: f = sum_ij w_ij * A_ij^2 * b_j.
#include "check.h"
#define R 13
#define C 11

double f(const double *A, const double *b, int r, int c) {
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s)
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      s += (1.0 + 0.1 * i) * A[i * c + j] * A[i * c + j] * b[j];
  return s;
}

int main(void) {
  double A[R * C], dA[R * C] = {0}, b[C], db[C] = {0};
  for (int k = 0; k < R * C; k++) A[k] = sin(0.1 * k);
  for (int j = 0; j < C; j++) b[j] = 1.0 + 0.05 * j;
  __enzyme_autodiff((void *)f, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, R,
                    enzyme_const, C);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      CHECK("dA", dA[i * C + j], (1.0 + 0.1 * i) * 2 * A[i * C + j] * b[j], 1e-12);
  for (int j = 0; j < C; j++) {
    double w = 0;
    for (int i = 0; i < R; i++) w += (1.0 + 0.1 * i) * A[i * C + j] * A[i * C + j];
    CHECK("db", db[j], w, 1e-12);
  }
  CHECK_DONE();
}
