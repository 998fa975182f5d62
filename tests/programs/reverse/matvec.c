// Reverse mode: y = A x written to an output array, loss = sum y_i^2.
#include "check.h"
enum { R = 3, C = 4 };
void matvec(const double *A, const double *x, double *y) {
  for (int i = 0; i < R; i++) {
    double s = 0;
    for (int j = 0; j < C; j++) s += A[i * C + j] * x[j];
    y[i] = s;
  }
}
double loss(const double *A, const double *x) {
  double y[R];
  matvec(A, x, y);
  double l = 0;
  for (int i = 0; i < R; i++) l += y[i] * y[i];
  return l;
}
int main(void) {
  double A[R * C], x[C], dA[R * C] = {0}, dx[C] = {0};
  for (int i = 0; i < R * C; i++) A[i] = sin(i + 1.0);
  for (int j = 0; j < C; j++) x[j] = 0.5 + 0.25 * j;
  __enzyme_autodiff((void *)loss, enzyme_dup, A, dA, enzyme_dup, x, dx);
  double y[R];
  matvec(A, x, y);
  for (int j = 0; j < C; j++) {
    double want = 0;
    for (int i = 0; i < R; i++) want += 2 * y[i] * A[i * C + j];
    CHECK("dx analytic", dx[j], want, 1e-10);
    CHECK("dx fd", dx[j], FD(x[j], loss(A, x), 1e-6), 1e-6);
  }
  for (int k = 0; k < R * C; k++)
    CHECK("dA fd", dA[k], FD(A[k], loss(A, x), 1e-6), 1e-6);
  CHECK_DONE();
}
