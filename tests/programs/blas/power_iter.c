// FLAGS: -lblas
// BLAS calls in a loop overwriting their own inputs (power iteration:
// y = A x, x = y / ||y||, in place, five times), as users write them:
// every iteration's factors must come from the tape. Reverse and forward
// mode against central finite differences.
#include "blas_test.h"
#define NN 4

double power(const double *a, const double *x0, int iters) {
  double x[NN], y[NN];
  for (int i = 0; i < NN; i++)
    x[i] = x0[i];
  for (int it = 0; it < iters; it++) {
    cblas_dgemv(ColMajor, NoTrans, NN, NN, 1.0, a, NN, x, 1, 0.0, y, 1);
    double r = cblas_dnrm2(NN, y, 1);
    cblas_dscal(NN, 1.0 / r, y, 1);
    cblas_daxpy(NN, 0.5, y, 1, x, 1); /* x = x + y / 2 */
    cblas_dscal(NN, 1.0 / 1.5, x, 1);
  }
  cblas_dgemv(ColMajor, Trans, NN, NN, 1.0, a, NN, x, 1, 0.0, y, 1);
  return cblas_ddot(NN, x, 1, y, 1);
}

int main(void) {
  double a[NN * NN], x[NN], da[NN * NN] = {0}, dx[NN] = {0};
  fill(a, NN * NN, 0.5), fill(x, NN, 1.5);
  for (int i = 0; i < NN; i++)
    a[i * NN + i] += 2.0;
  __enzyme_autodiff((void *)power, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_const, 5);
  CHECK_GRAD("power dA", a, da, NN * NN, power(a, x, 5));
  CHECK_GRAD("power dx", x, dx, NN, power(a, x, 5));
  double ta[NN * NN], tx[NN];
  fill(ta, NN * NN, 3.0), fill(tx, NN, 4.0);
  double want = 0.0;
  for (int i = 0; i < NN * NN; i++)
    want += ta[i] * da[i];
  for (int i = 0; i < NN; i++)
    want += tx[i] * dx[i];
  double t = __enzyme_fwddiff((void *)power, enzyme_dup, a, ta, enzyme_dup, x, tx, enzyme_const, 5);
  CHECK("power forward", t, want, 1e-9);
  CHECK_DONE();
}
