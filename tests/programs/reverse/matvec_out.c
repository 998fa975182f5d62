// Reverse mode: void function writing y = A x; seed the output shadow dy
// and check dx = A^T dy (adjoints flow from an output array).
#include "check.h"
void matvec(const double *A, const double *x, double *y, int r, int c) {
  for (int i = 0; i < r; i++) {
    y[i] = 0;
    for (int j = 0; j < c; j++) y[i] += A[i * c + j] * x[j];
  }
}
int main(void) {
  enum { R = 4, C = 3 };
  double A[R * C], x[C] = {1, 2, 3}, y[R], dx[C] = {0}, dy[R] = {1, -1, 0.5, 2};
  for (int i = 0; i < R * C; i++) A[i] = 0.1 * i - 0.4;
  double dy0[R];
  for (int i = 0; i < R; i++) dy0[i] = dy[i];
  __enzyme_autodiff((void *)matvec, enzyme_const, A, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, R, enzyme_const, C);
  for (int j = 0; j < C; j++) {
    double want = 0;
    for (int i = 0; i < R; i++) want += A[i * C + j] * dy0[i];
    CHECK("A^T dy", dx[j], want, 1e-12);
  }
  for (int i = 0; i < R; i++) CHECK("dy consumed", dy[i], 0.0, 0);
  CHECK_DONE();
}
