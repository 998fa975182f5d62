// FLAGS: -lblas
// Level 1: ddot, daxpy, dscal, dnrm2 (CBLAS and Fortran spellings) with
// unit, positive and negative strides, in reverse and forward mode, against
// central finite differences (the forward tangent against the reverse
// gradient along the tangents).
#include "blas_test.h"

#define NV 4
static int INCX = 1, INCY = 1, FORT = 0;
static int len(int inc) { return 1 + (NV - 1) * (inc < 0 ? -inc : inc); }

double dot_loss(const double *x, const double *y) {
  double r;
  if (FORT) {
    int n = NV;
    r = ddot_(&n, x, &INCX, y, &INCY);
  } else {
    r = cblas_ddot(NV, x, INCX, y, INCY);
  }
  return r * r + r;
}

double axpy_loss(const double *x, const double *y0, double a) {
  double y[16];
  for (int i = 0; i < len(INCY); i++)
    y[i] = y0[i];
  if (FORT) {
    int n = NV;
    daxpy_(&n, &a, x, &INCX, y, &INCY);
  } else {
    cblas_daxpy(NV, a, x, INCX, y, INCY);
  }
  double s = 0.0;
  for (int i = 0; i < len(INCY); i++)
    s += (1.0 + 0.3 * i) * y[i] * y[i];
  return s;
}

double scal_loss(const double *x0, double a) {
  double *x = malloc(16 * sizeof(double));
  for (int i = 0; i < len(INCX); i++)
    x[i] = x0[i];
  if (FORT) {
    int n = NV;
    dscal_(&n, &a, x, &INCX);
  } else {
    cblas_dscal(NV, a, x, INCX);
  }
  double s = 0.0;
  for (int i = 0; i < len(INCX); i++)
    s += (1.0 - 0.2 * i) * x[i] * x[i] * x[i];
  free(x);
  return s;
}

double nrm2_loss(const double *x) {
  double r;
  if (FORT) {
    int n = NV;
    r = dnrm2_(&n, x, &INCX);
  } else {
    r = cblas_dnrm2(NV, x, INCX);
  }
  return 3.0 * r + r * r * r;
}

double __enzyme_autodiff(void *, ...);

static void run(int fort, int incx, int incy) {
  FORT = fort, INCX = incx, INCY = incy;
  int lx = len(incx), ly = len(incy);
  double x[16], y[16], tx[16], ty[16];
  fill(x, lx, 0.3), fill(y, ly, 1.9), fill(tx, lx, 4.0), fill(ty, ly, 5.0);
  char lab[64], nm[96];
  snprintf(lab, sizeof lab, "%s incx %d incy %d", fort ? "fortran" : "cblas", incx, incy);
  /* dot */
  double dx[16] = {0}, dy[16] = {0};
  __enzyme_autodiff((void *)dot_loss, enzyme_dup, x, dx, enzyme_dup, y, dy);
  snprintf(nm, sizeof nm, "%s dot dx", lab);
  CHECK_GRAD(nm, x, dx, lx, dot_loss(x, y));
  snprintf(nm, sizeof nm, "%s dot dy", lab);
  CHECK_GRAD(nm, y, dy, ly, dot_loss(x, y));
  double want = 0.0;
  for (int i = 0; i < lx; i++)
    want += tx[i] * dx[i];
  for (int i = 0; i < ly; i++)
    want += ty[i] * dy[i];
  snprintf(nm, sizeof nm, "%s dot forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)dot_loss, enzyme_dup, x, tx, enzyme_dup, y, ty), want, 1e-10);
  /* axpy */
  double a = 0.8, da = 0.0;
  memset(dx, 0, sizeof dx), memset(dy, 0, sizeof dy);
  /* (daxpy_ takes a by reference: its slot in the loss's frame.) */
  da = __enzyme_autodiff((void *)axpy_loss, enzyme_dup, x, dx, enzyme_dup, y, dy, a);
  snprintf(nm, sizeof nm, "%s axpy dx", lab);
  CHECK_GRAD(nm, x, dx, lx, axpy_loss(x, y, a));
  snprintf(nm, sizeof nm, "%s axpy dy", lab);
  CHECK_GRAD(nm, y, dy, ly, axpy_loss(x, y, a));
  snprintf(nm, sizeof nm, "%s axpy da", lab);
  CHECK(nm, da, FD(a, axpy_loss(x, y, a), 1e-6), 1e-6);
  want = 0.5 * da;
  for (int i = 0; i < lx; i++)
    want += tx[i] * dx[i];
  for (int i = 0; i < ly; i++)
    want += ty[i] * dy[i];
  snprintf(nm, sizeof nm, "%s axpy forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)axpy_loss, enzyme_dup, x, tx, enzyme_dup, y, ty, a, 0.5),
        want, 1e-10);
  /* scal */
  memset(dx, 0, sizeof dx);
  da = __enzyme_autodiff((void *)scal_loss, enzyme_dup, x, dx, a);
  snprintf(nm, sizeof nm, "%s scal dx", lab);
  CHECK_GRAD(nm, x, dx, lx, scal_loss(x, a));
  snprintf(nm, sizeof nm, "%s scal da", lab);
  CHECK(nm, da, FD(a, scal_loss(x, a), 1e-6), 1e-6);
  want = -0.7 * da;
  for (int i = 0; i < lx; i++)
    want += tx[i] * dx[i];
  snprintf(nm, sizeof nm, "%s scal forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)scal_loss, enzyme_dup, x, tx, a, -0.7), want, 1e-10);
  /* nrm2 */
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)nrm2_loss, enzyme_dup, x, dx);
  snprintf(nm, sizeof nm, "%s nrm2 dx", lab);
  CHECK_GRAD(nm, x, dx, lx, nrm2_loss(x));
  want = 0.0;
  for (int i = 0; i < lx; i++)
    want += tx[i] * dx[i];
  snprintf(nm, sizeof nm, "%s nrm2 forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)nrm2_loss, enzyme_dup, x, tx), want, 1e-10);
}

int main(void) {
  for (int f = 0; f < 2; f++) {
    run(f, 1, 1);
    run(f, 2, 3);
    run(f, 2, -1); /* dscal / dnrm2 only see incx > 0 here */
  }
  CHECK_DONE();
}
