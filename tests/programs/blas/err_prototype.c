// FLAGS: -lblas
// EXPECT-ERROR: the BLAS routine 'cblas_ddot' is declared as
// A BLAS routine declared with another prototype than the reference one
// (64-bit sizes): a compile error, not a wrong derivative.
#include "check.h"
double cblas_ddot(long n, const double *x, long incx, const double *y, long incy);

double f(const double *x) { return cblas_ddot(2, x, 1, x, 1); }

int main(void) {
  double x[2] = {1, 2}, dx[2] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  printf("%g\n", dx[0]);
  return 0;
}
