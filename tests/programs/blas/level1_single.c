// FLAGS: -lblas
// Level 1 in single precision: sdot, saxpy, sscal, snrm2 (CBLAS and
// Fortran spellings) with unit, positive and negative strides, in reverse
// and forward mode, against central finite differences (float inputs, the
// losses summed in double, FH / FTOL from blas_test.h); the forward
// tangent against the reverse gradient along the tangents. The scalar a is
// a double in the loss and rounded to float for the call.
#include "blas_test.h"

#define NV 4
static int INCX = 1, INCY = 1, FORT = 0;
static int len(int inc) { return 1 + (NV - 1) * (inc < 0 ? -inc : inc); }

double dot_loss(const float *x, const float *y) {
  float r;
  if (FORT) {
    int n = NV;
    r = sdot_(&n, x, &INCX, y, &INCY);
  } else {
    r = cblas_sdot(NV, x, INCX, y, INCY);
  }
  return (double)r * r + r;
}

double axpy_loss(const float *x, const float *y0, double a) {
  float y[16], af = (float)a;
  for (int i = 0; i < len(INCY); i++)
    y[i] = y0[i];
  if (FORT) {
    int n = NV;
    saxpy_(&n, &af, x, &INCX, y, &INCY);
  } else {
    cblas_saxpy(NV, af, x, INCX, y, INCY);
  }
  double s = 0.0;
  for (int i = 0; i < len(INCY); i++)
    s += (1.0 + 0.3 * i) * y[i] * y[i];
  return s;
}

double scal_loss(const float *x0, double a) {
  float *x = malloc(16 * sizeof(float)), af = (float)a;
  for (int i = 0; i < len(INCX); i++)
    x[i] = x0[i];
  if (FORT) {
    int n = NV;
    sscal_(&n, &af, x, &INCX);
  } else {
    cblas_sscal(NV, af, x, INCX);
  }
  double s = 0.0;
  for (int i = 0; i < len(INCX); i++)
    s += (1.0 - 0.2 * i) * x[i] * x[i] * x[i];
  free(x);
  return s;
}

double nrm2_loss(const float *x) {
  float r;
  if (FORT) {
    int n = NV;
    r = snrm2_(&n, x, &INCX);
  } else {
    r = cblas_snrm2(NV, x, INCX);
  }
  return 3.0 * r + (double)r * r * r;
}

/* y passed as x (same vector): y := (1 + a) y. */
double axpy_self_loss(const float *y0, double a) {
  float y[16], af = (float)a;
  for (int i = 0; i < len(INCY); i++)
    y[i] = y0[i];
  if (FORT) {
    int n = NV;
    saxpy_(&n, &af, y, &INCY, y, &INCY);
  } else {
    cblas_saxpy(NV, af, y, INCY, y, INCY);
  }
  double s = 0.0;
  for (int i = 0; i < len(INCY); i++)
    s += (1.0 + 0.3 * i) * y[i] * y[i];
  return s;
}

double __enzyme_autodiff(void *, ...);

static double along(const float *t, const float *d, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += (double)t[i] * d[i];
  return s;
}

static void run(int fort, int incx, int incy) {
  FORT = fort, INCX = incx, INCY = incy;
  int lx = len(incx), ly = len(incy);
  float x[16], y[16], tx[16], ty[16];
  fillf(x, lx, 0.3), fillf(y, ly, 1.9), fillf(tx, lx, 4.0), fillf(ty, ly, 5.0);
  char lab[64], nm[96];
  snprintf(lab, sizeof lab, "%s incx %d incy %d", fort ? "fortran" : "cblas", incx, incy);
  /* dot */
  float dx[16] = {0}, dy[16] = {0};
  __enzyme_autodiff((void *)dot_loss, enzyme_dup, x, dx, enzyme_dup, y, dy);
  snprintf(nm, sizeof nm, "%s sdot dx", lab);
  CHECK_GRADF(nm, x, dx, lx, dot_loss(x, y));
  snprintf(nm, sizeof nm, "%s sdot dy", lab);
  CHECK_GRADF(nm, y, dy, ly, dot_loss(x, y));
  double want = along(tx, dx, lx) + along(ty, dy, ly);
  snprintf(nm, sizeof nm, "%s sdot forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)dot_loss, enzyme_dup, x, tx, enzyme_dup, y, ty), want, 1e-4);
  /* dot with x as y */
  memset(dx, 0, sizeof dx);
  INCY = INCX;
  __enzyme_autodiff((void *)dot_loss, enzyme_dup, x, dx, enzyme_dup, x, dx);
  snprintf(nm, sizeof nm, "%s sdot(x, x) dx", lab);
  CHECK_GRADF(nm, x, dx, lx, dot_loss(x, x));
  INCY = incy;
  /* axpy */
  double a = 0.8, da = 0.0;
  memset(dx, 0, sizeof dx), memset(dy, 0, sizeof dy);
  da = __enzyme_autodiff((void *)axpy_loss, enzyme_dup, x, dx, enzyme_dup, y, dy, a);
  snprintf(nm, sizeof nm, "%s saxpy dx", lab);
  CHECK_GRADF(nm, x, dx, lx, axpy_loss(x, y, a));
  snprintf(nm, sizeof nm, "%s saxpy dy", lab);
  CHECK_GRADF(nm, y, dy, ly, axpy_loss(x, y, a));
  snprintf(nm, sizeof nm, "%s saxpy da", lab);
  CHECK(nm, da, FD(a, axpy_loss(x, y, a), FH), FTOL);
  want = 0.5 * da + along(tx, dx, lx) + along(ty, dy, ly);
  snprintf(nm, sizeof nm, "%s saxpy forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)axpy_loss, enzyme_dup, x, tx, enzyme_dup, y, ty, a, 0.5),
        want, 1e-4);
  /* axpy with x as y; x constant */
  memset(dy, 0, sizeof dy);
  da = __enzyme_autodiff((void *)axpy_self_loss, enzyme_dup, y, dy, a);
  snprintf(nm, sizeof nm, "%s saxpy(y, y) dy", lab);
  CHECK_GRADF(nm, y, dy, ly, axpy_self_loss(y, a));
  snprintf(nm, sizeof nm, "%s saxpy(y, y) da", lab);
  CHECK(nm, da, FD(a, axpy_self_loss(y, a), FH), FTOL);
  want = 0.5 * da + along(ty, dy, ly);
  snprintf(nm, sizeof nm, "%s saxpy(y, y) forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)axpy_self_loss, enzyme_dup, y, ty, a, 0.5), want, 1e-4);
  memset(dy, 0, sizeof dy);
  __enzyme_autodiff((void *)axpy_loss, enzyme_const, x, enzyme_dup, y, dy, enzyme_const, a);
  snprintf(nm, sizeof nm, "%s saxpy const x, a: dy", lab);
  CHECK_GRADF(nm, y, dy, ly, axpy_loss(x, y, a));
  /* scal */
  memset(dx, 0, sizeof dx);
  da = __enzyme_autodiff((void *)scal_loss, enzyme_dup, x, dx, a);
  snprintf(nm, sizeof nm, "%s sscal dx", lab);
  CHECK_GRADF(nm, x, dx, lx, scal_loss(x, a));
  snprintf(nm, sizeof nm, "%s sscal da", lab);
  CHECK(nm, da, FD(a, scal_loss(x, a), FH), FTOL);
  want = -0.7 * da + along(tx, dx, lx);
  snprintf(nm, sizeof nm, "%s sscal forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)scal_loss, enzyme_dup, x, tx, a, -0.7), want, 1e-4);
  /* nrm2 */
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)nrm2_loss, enzyme_dup, x, dx);
  snprintf(nm, sizeof nm, "%s snrm2 dx", lab);
  CHECK_GRADF(nm, x, dx, lx, nrm2_loss(x));
  want = along(tx, dx, lx);
  snprintf(nm, sizeof nm, "%s snrm2 forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)nrm2_loss, enzyme_dup, x, tx), want, 1e-4);
}

int main(void) {
  for (int f = 0; f < 2; f++) {
    run(f, 1, 1);
    run(f, 2, 3);
    run(f, 2, -1); /* sscal / snrm2 only see incx > 0 here */
  }
  CHECK_DONE();
}
