// FLAGS: -lblas
// EXPECT-ERROR: in vector mode (enzyme_width 2) is not supported yet
// BLAS calls in vector forward mode: a compile error, not a wrong tangent.
#include "blas_test.h"
typedef struct {
  double d[2];
} T2;
T2 __enzyme_fwddiff_w(void *, ...);

double f(double *x) {
  cblas_dscal(2, 3.0, x, 1);
  return x[0] + x[1];
}

int main(void) {
  double x[2] = {1, 2}, t0[2] = {1, 0}, t1[2] = {0, 1};
  T2 t = __enzyme_fwddiff_w((void *)f, enzyme_width, 2, enzyme_dup, x, t0, t1);
  printf("%g\n", t.d[0]);
  return 0;
}
