// FLAGS: -lblas
// dcopy, dswap, dasum (CBLAS and Fortran spellings) and their single
// precision twins, with unit, positive and negative strides, in reverse
// and forward mode, against central finite differences (float: FH / FTOL
// from blas_test.h); x constant in one variant; copy and swap of a vector
// with itself. asum's derivative is the sign (the inputs stay away from 0).
#include "blas_test.h"

void cblas_dcopy(int n, const double *x, int incx, double *y, int incy);
void cblas_dswap(int n, double *x, int incx, double *y, int incy);
double cblas_dasum(int n, const double *x, int incx);
void dcopy_(const int *n, const double *x, const int *incx, double *y, const int *incy);
void dswap_(const int *n, double *x, const int *incx, double *y, const int *incy);
double dasum_(const int *n, const double *x, const int *incx);
void cblas_scopy(int n, const float *x, int incx, float *y, int incy);
void cblas_sswap(int n, float *x, int incx, float *y, int incy);
float cblas_sasum(int n, const float *x, int incx);
void scopy_(const int *n, const float *x, const int *incx, float *y, const int *incy);
void sswap_(const int *n, float *x, const int *incx, float *y, const int *incy);
float sasum_(const int *n, const float *x, const int *incx);

#define NV 4
static int INCX = 1, INCY = 1, FORT = 0;
static int len(int inc) { return 1 + (NV - 1) * (inc < 0 ? -inc : inc); }
static double wsq(const double *v, int n, double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += (1.0 + w * i) * v[i] * v[i] * v[i];
  return s;
}

/* y := x, then a cubic of x and y (x read again after the copy). */
double copy_loss(const double *x0, const double *y0) {
  double x[16], y[16];
  memcpy(x, x0, sizeof x), memcpy(y, y0, sizeof y);
  int n = NV;
  if (FORT)
    dcopy_(&n, x, &INCX, y, &INCY);
  else
    cblas_dcopy(NV, x, INCX, y, INCY);
  return wsq(x, len(INCX), 0.2) + wsq(y, len(INCY), -0.1);
}

double swap_loss(const double *x0, const double *y0) {
  double x[16], y[16];
  memcpy(x, x0, sizeof x), memcpy(y, y0, sizeof y);
  int n = NV;
  if (FORT)
    dswap_(&n, x, &INCX, y, &INCY);
  else
    cblas_dswap(NV, x, INCX, y, INCY);
  return wsq(x, len(INCX), 0.2) + wsq(y, len(INCY), -0.1);
}

/* copy and swap of x with itself: nothing happens. */
double self_loss(const double *x0) {
  double x[16];
  memcpy(x, x0, sizeof x);
  int n = NV;
  if (FORT)
    dcopy_(&n, x, &INCX, x, &INCX), dswap_(&n, x, &INCX, x, &INCX);
  else
    cblas_dcopy(NV, x, INCX, x, INCX), cblas_dswap(NV, x, INCX, x, INCX);
  return wsq(x, len(INCX), 0.3);
}

double asum_loss(const double *x) {
  int n = NV;
  double r = FORT ? dasum_(&n, x, &INCX) : cblas_dasum(NV, x, INCX);
  return r * r + 0.5 * r;
}

double fcopy_swap_loss(const float *x0, const float *y0) {
  float x[16], y[16], z[16] = {0};
  memcpy(x, x0, sizeof x), memcpy(y, y0, sizeof y);
  int n = NV;
  if (FORT)
    scopy_(&n, y, &INCY, z, &INCX), sswap_(&n, x, &INCX, y, &INCY);
  else
    cblas_scopy(NV, y, INCY, z, INCX), cblas_sswap(NV, x, INCX, y, INCY);
  double s = 0.0;
  for (int i = 0; i < len(INCX); i++)
    s += (1.0 + 0.2 * i) * x[i] * x[i] * x[i] + z[i] * x[i];
  for (int i = 0; i < len(INCY); i++)
    s += (1.0 - 0.1 * i) * y[i] * y[i];
  return s;
}

double fasum_loss(const float *x) {
  int n = NV;
  float r = FORT ? sasum_(&n, x, &INCX) : cblas_sasum(NV, x, INCX);
  return (double)r * r + 0.5 * r;
}

double __enzyme_autodiff(void *, ...);

/* Reverse and forward through F (copy_loss or swap_loss), also with x
 * constant. */
#define copy_or_swap(F, NAME, lab, x, y, tx, ty, lx, ly)                                     \
  do {                                                                                       \
    char nm[96];                                                                             \
    double dx[16] = {0}, dy[16] = {0};                                                       \
    __enzyme_autodiff((void *)F, enzyme_dup, x, dx, enzyme_dup, y, dy);                      \
    snprintf(nm, sizeof nm, "%s %s dx", lab, NAME);                                          \
    CHECK_GRAD(nm, x, dx, lx, F(x, y));                                                      \
    snprintf(nm, sizeof nm, "%s %s dy", lab, NAME);                                          \
    CHECK_GRAD(nm, y, dy, ly, F(x, y));                                                      \
    double want = 0.0;                                                                       \
    for (int i = 0; i < lx; i++)                                                             \
      want += tx[i] * dx[i];                                                                 \
    for (int i = 0; i < ly; i++)                                                             \
      want += ty[i] * dy[i];                                                                 \
    snprintf(nm, sizeof nm, "%s %s forward", lab, NAME);                                     \
    CHECK(nm, __enzyme_fwddiff((void *)F, enzyme_dup, x, tx, enzyme_dup, y, ty), want, 1e-10); \
    double dy2[16] = {0};                                                                    \
    __enzyme_autodiff((void *)F, enzyme_const, x, enzyme_dup, y, dy2);                       \
    snprintf(nm, sizeof nm, "%s %s const x: dy", lab, NAME);                                 \
    CHECK_GRAD(nm, y, dy2, ly, F(x, y));                                                     \
    want = 0.0;                                                                              \
    for (int i = 0; i < ly; i++)                                                             \
      want += ty[i] * dy2[i];                                                                \
    snprintf(nm, sizeof nm, "%s %s const x: forward", lab, NAME);                            \
    CHECK(nm, __enzyme_fwddiff((void *)F, enzyme_const, x, enzyme_dup, y, ty), want, 1e-10);   \
  } while (0)

static void run(int fort, int incx, int incy) {
  FORT = fort, INCX = incx, INCY = incy;
  int lx = len(incx), ly = len(incy);
  double x[16] = {0}, y[16] = {0}, tx[16] = {0}, ty[16] = {0};
  fill(x, lx, 0.3), fill(y, ly, 1.9), fill(tx, lx, 4.0), fill(ty, ly, 5.0);
  for (int i = 0; i < lx; i++)
    if (fabs(x[i]) < 0.05)
      x[i] += 0.2; /* asum: away from the kink */
  char lab[64], nm[96];
  snprintf(lab, sizeof lab, "%s incx %d incy %d", fort ? "fortran" : "cblas", incx, incy);
  copy_or_swap(copy_loss, "copy", lab, x, y, tx, ty, lx, ly);
  copy_or_swap(swap_loss, "swap", lab, x, y, tx, ty, lx, ly);
  double dx[16] = {0};
  __enzyme_autodiff((void *)self_loss, enzyme_dup, x, dx);
  snprintf(nm, sizeof nm, "%s copy/swap x with x: dx", lab);
  CHECK_GRAD(nm, x, dx, lx, self_loss(x));
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)asum_loss, enzyme_dup, x, dx);
  snprintf(nm, sizeof nm, "%s asum dx", lab);
  CHECK_GRAD(nm, x, dx, lx, asum_loss(x));
  double want = 0.0;
  for (int i = 0; i < lx; i++)
    want += tx[i] * dx[i];
  snprintf(nm, sizeof nm, "%s asum forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)asum_loss, enzyme_dup, x, tx), want, 1e-10);
  /* single precision */
  float fx[16] = {0}, fy[16] = {0}, fdx[16] = {0}, fdy[16] = {0};
  for (int i = 0; i < 16; i++)
    fx[i] = (float)x[i], fy[i] = (float)y[i];
  __enzyme_autodiff((void *)fcopy_swap_loss, enzyme_dup, fx, fdx, enzyme_dup, fy, fdy);
  snprintf(nm, sizeof nm, "%s scopy+sswap dx", lab);
  CHECK_GRADF(nm, fx, fdx, lx, fcopy_swap_loss(fx, fy));
  snprintf(nm, sizeof nm, "%s scopy+sswap dy", lab);
  CHECK_GRADF(nm, fy, fdy, ly, fcopy_swap_loss(fx, fy));
  memset(fdx, 0, sizeof fdx);
  __enzyme_autodiff((void *)fasum_loss, enzyme_dup, fx, fdx);
  snprintf(nm, sizeof nm, "%s sasum dx", lab);
  CHECK_GRADF(nm, fx, fdx, lx, fasum_loss(fx));
  float ftx[16] = {0};
  want = 0.0;
  for (int i = 0; i < lx; i++)
    ftx[i] = (float)tx[i], want += (double)ftx[i] * fdx[i];
  snprintf(nm, sizeof nm, "%s sasum forward", lab);
  CHECK(nm, __enzyme_fwddiff((void *)fasum_loss, enzyme_dup, fx, ftx), want, 1e-4);
}

int main(void) {
  for (int f = 0; f < 2; f++) {
    run(f, 1, 1);
    run(f, 2, 3);
    run(f, 2, -1); /* dasum only sees incx > 0 here */
  }
  CHECK_DONE();
}
