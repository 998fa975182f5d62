// FLAGS: -lblas
// cblas_dger / dger_ and cblas_sger / sger_ (A += alpha x y^T; row and
// column major, padded leading dimension, strided and negative-stride
// vectors), in reverse and forward mode against central finite
// differences (float: FH / FTOL from blas_test.h); x constant in one
// variant.
#include "blas_test.h"

void cblas_dger(int order, int m, int n, double alpha, const double *x, int incx,
                const double *y, int incy, double *a, int lda);
void dger_(const int *m, const int *n, const double *alpha, const double *x, const int *incx,
           const double *y, const int *incy, double *a, const int *lda);
void cblas_sger(int order, int m, int n, float alpha, const float *x, int incx, const float *y,
                int incy, float *a, int lda);
void sger_(const int *m, const int *n, const float *alpha, const float *x, const int *incx,
           const float *y, const int *incy, float *a, const int *lda);

static int ORDER, M = 3, N = 2, LDA, SA, INCX, INCY, FORT;
static int span(int n, int inc) { return 1 + (n - 1) * (inc < 0 ? -inc : inc); }

/* A cubic of the updated A. */
double loss(const double *x, const double *y, const double *a0, double alpha) {
  double a[32];
  memcpy(a, a0, SA * sizeof(double));
  if (FORT)
    dger_(&M, &N, &alpha, x, &INCX, y, &INCY, a, &LDA);
  else
    cblas_dger(ORDER, M, N, alpha, x, INCX, y, INCY, a, LDA);
  double s = 0.0;
  for (int i = 0; i < SA; i++)
    s += (1.0 + 0.1 * i) * a[i] * a[i] * a[i];
  return s;
}

double floss(const float *x, const float *y, const float *a0, double alpha) {
  float a[32], al = (float)alpha;
  memcpy(a, a0, SA * sizeof(float));
  if (FORT)
    sger_(&M, &N, &al, x, &INCX, y, &INCY, a, &LDA);
  else
    cblas_sger(ORDER, M, N, al, x, INCX, y, INCY, a, LDA);
  double s = 0.0;
  for (int i = 0; i < SA; i++)
    s += (1.0 + 0.1 * i) * a[i] * a[i];
  return s;
}

double __enzyme_autodiff(void *, ...);

static void one(int fort, int order, int incx, int incy) {
  FORT = fort, ORDER = order, INCX = incx, INCY = incy;
  LDA = (order == ColMajor ? M : N) + 1;
  SA = LDA * (order == ColMajor ? N : M);
  int lx = span(M, incx), ly = span(N, incy);
  double x[16], y[16], a[32], dx[16] = {0}, dy[16] = {0}, da[32] = {0}, alpha = 0.7;
  fill(x, lx, 0.5), fill(y, ly, 1.5), fill(a, SA, 2.5);
  char lab[64], nm[96];
  snprintf(lab, sizeof lab, "%s %s incx %d incy %d", fort ? "ger_" : "cblas_ger",
           order == RowMajor ? "row" : "col", incx, incy);
  double dal = __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup,
                                 a, da, alpha);
  snprintf(nm, sizeof nm, "%s dx", lab);
  CHECK_GRAD(nm, x, dx, lx, loss(x, y, a, alpha));
  snprintf(nm, sizeof nm, "%s dy", lab);
  CHECK_GRAD(nm, y, dy, ly, loss(x, y, a, alpha));
  snprintf(nm, sizeof nm, "%s dA", lab);
  CHECK_GRAD(nm, a, da, SA, loss(x, y, a, alpha));
  snprintf(nm, sizeof nm, "%s dalpha", lab);
  CHECK(nm, dal, FD(alpha, loss(x, y, a, alpha), 1e-6), 1e-6);
  double tx[16], ty[16], ta[32];
  fill(tx, lx, 3.0), fill(ty, ly, 4.0), fill(ta, SA, 5.0);
  double want = -0.4 * dal;
  for (int i = 0; i < lx; i++)
    want += tx[i] * dx[i];
  for (int i = 0; i < ly; i++)
    want += ty[i] * dy[i];
  for (int i = 0; i < SA; i++)
    want += ta[i] * da[i];
  snprintf(nm, sizeof nm, "%s forward", lab);
  CHECK(nm,
        __enzyme_fwddiff((void *)loss, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_dup, a, ta,
                         alpha, -0.4),
        want, 1e-9);
  double dy2[16] = {0}, da2[32] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, x, enzyme_dup, y, dy2, enzyme_dup, a, da2,
                    enzyme_const, alpha);
  snprintf(nm, sizeof nm, "%s const x: dy", lab);
  CHECK_GRAD(nm, y, dy2, ly, loss(x, y, a, alpha));
  /* single precision */
  float fx[16], fy[16], fa[32], fdx[16] = {0}, fdy[16] = {0}, fda[32] = {0};
  for (int i = 0; i < 16; i++)
    fx[i] = (float)x[i], fy[i] = (float)y[i];
  for (int i = 0; i < 32; i++)
    fa[i] = (float)a[i];
  dal = __enzyme_autodiff((void *)floss, enzyme_dup, fx, fdx, enzyme_dup, fy, fdy, enzyme_dup, fa,
                          fda, alpha);
  snprintf(nm, sizeof nm, "%s s dx", lab);
  CHECK_GRADF(nm, fx, fdx, lx, floss(fx, fy, fa, alpha));
  snprintf(nm, sizeof nm, "%s s dy", lab);
  CHECK_GRADF(nm, fy, fdy, ly, floss(fx, fy, fa, alpha));
  snprintf(nm, sizeof nm, "%s s dA", lab);
  CHECK_GRADF(nm, fa, fda, SA, floss(fx, fy, fa, alpha));
  snprintf(nm, sizeof nm, "%s s dalpha", lab);
  CHECK(nm, dal, FD(alpha, floss(fx, fy, fa, alpha), FH), FTOL);
}

int main(void) {
  for (int o = 0; o < 2; o++) {
    one(0, o ? RowMajor : ColMajor, 1, 1);
    one(0, o ? RowMajor : ColMajor, 2, -3);
  }
  one(1, ColMajor, 1, 1);
  one(1, ColMajor, -2, 2);
  CHECK_DONE();
}
