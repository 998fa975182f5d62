// FLAGS: -lblas
// Fortran BLAS calls whose counts, strides and scalars (&n, &inc, &a) live
// in the stack frame of a function differentiated as a call: the runtime's
// reverse (runtime/blas_rt.c) reads them in the reverse sweep, after that
// frame has returned (modes/reverse/promote.rs moves them to the heap).
// Under ENZYME_RS_SANITIZE=address the runtime's reverse and the reverse
// sweep are instrumented too (driver.rs, sanitize_new_functions), so a
// read of the dead frame is reported: with BLAS slots left on the stack,
// stack-use-after-return in __enzyme_rs_blas_rev_dcopy_ at -O0 and -O2
// (unreported while the runtime was not instrumented).
// Gradients against central finite differences.
#include "blas_test.h"

double __enzyme_autodiff(void *, ...);
int enzyme_dup;

#define N 5

void dcopy_(const int *n, const double *x, const int *incx, double *y, const int *incy);

/* z := x, y := y + a z, then z.y; every count and scalar passed by
 * address. */
__attribute__((noinline)) double step(const double *x, double *y, double a) {
  int n = N, inc = 1;
  double alpha = a, z[N];
  dcopy_(&n, x, &inc, z, &inc);
  daxpy_(&n, &alpha, z, &inc, y, &inc);
  return ddot_(&n, z, &inc, y, &inc);
}

double loss(const double *x, const double *y0) {
  double y[N];
  memcpy(y, y0, sizeof y);
  double s = step(x, y, 0.5);
  s += step(y, y + 0, -0.25) * 0.1; /* x and y the same array */
  double t = 0;
  for (int i = 0; i < N; i++)
    t += y[i] * y[i] * (1.0 + 0.1 * i);
  return s * s + t;
}

int main(void) {
  double x[N], y[N], dx[N] = {0}, dy[N] = {0};
  fill(x, N, 0.3);
  fill(y, N, 1.1);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, y, dy);
  CHECK_GRAD("dx", x, dx, N, loss(x, y));
  CHECK_GRAD("dy", y, dy, N, loss(x, y));
  CHECK_DONE();
}
