// FLAGS: -lblas
// EXPECT-ERROR: the BLAS routine 'sdot_' is declared as double
// sdot_ declared the f2c way (a REAL function returning double): not the
// reference gfortran ABI the rule expects (float), so a compile error
// rather than a derivative of the wrong function.
#include "check.h"
double sdot_(const int *n, const float *x, const int *incx, const float *y, const int *incy);

double f(const float *x) {
  int n = 2, one = 1;
  return sdot_(&n, x, &one, x, &one);
}

int main(void) {
  float x[2] = {1, 2}, dx[2] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  printf("%g\n", dx[0]);
  return 0;
}
