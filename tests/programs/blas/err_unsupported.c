// FLAGS: -lblas
// EXPECT-ERROR: no derivative rule for the BLAS routine 'cblas_dtrsm'
// A BLAS routine without a derivative rule: a compile error naming it.
#include "blas_test.h"
void cblas_dtrsm(int order, int side, int uplo, int ta, int diag, int m, int n, double alpha,
                 const double *a, int lda, double *b, int ldb);

double solve(const double *a, double *b) {
  cblas_dtrsm(ColMajor, 141, 121, NoTrans, 131, 2, 1, 1.0, a, 2, b, 2);
  return b[0] + b[1];
}

int main(void) {
  double a[4] = {2, 0, 1, 3}, b[2] = {1, 1}, da[4] = {0}, db[2] = {0};
  __enzyme_autodiff((void *)solve, enzyme_dup, a, da, enzyme_dup, b, db);
  printf("%g\n", da[0]);
  return 0;
}
