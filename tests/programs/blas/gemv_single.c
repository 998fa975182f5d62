// FLAGS: -lblas
// cblas_sgemv (row and column major, both transposes, padded leading
// dimension, strided and negative-stride vectors) and Fortran sgemv_, in
// reverse and forward mode against central finite differences (float
// data, double alpha/beta rounded to float for the call, FH / FTOL from
// blas_test.h); A constant in one variant.
#include "blas_test.h"

static int ORDER, TR, M = 3, N = 4, LDA, SA, INCX = 1, INCY = 1, FORT = 0;
typedef struct {
  double da, db;
} D2;
static int xlen(void) { return TR == Trans ? M : N; }
static int ylen(void) { return TR == Trans ? N : M; }
static int span(int n, int inc) { return 1 + (n - 1) * (inc < 0 ? -inc : inc); }

double loss(const float *a, const float *x, const float *y0, double alpha, double beta) {
  float y[32], al = (float)alpha, be = (float)beta;
  int ly = span(ylen(), INCY);
  for (int i = 0; i < ly; i++)
    y[i] = y0[i];
  if (FORT) {
    char t = TR == Trans ? 'T' : 'N';
    sgemv_(&t, &M, &N, &al, a, &LDA, x, &INCX, &be, y, &INCY);
  } else {
    cblas_sgemv(ORDER, TR, M, N, al, a, LDA, x, INCX, be, y, INCY);
  }
  double s = 0.0;
  for (int i = 0; i < ly; i++)
    s += (0.5 + 0.25 * i) * y[i] * y[i];
  return s;
}

D2 __enzyme_autodiff_d2(void *, ...);

static double along(const float *t, const float *d, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += (double)t[i] * d[i];
  return s;
}

static void one(int fort, int order, int tr, int incx, int incy) {
  FORT = fort, ORDER = order, TR = tr, INCX = incx, INCY = incy;
  LDA = (order == ColMajor ? M : N) + 1;
  SA = LDA * (order == ColMajor ? N : M);
  int lx = span(xlen(), incx), ly = span(ylen(), incy);
  float a[64], x[32], y[32], da[64] = {0}, dx[32] = {0}, dy[32] = {0};
  double alpha = 1.2, beta = -0.6;
  fillf(a, SA, 0.2), fillf(x, lx, 2.2), fillf(y, ly, 3.1);
  char lab[64], nm[96];
  snprintf(lab, sizeof lab, "%s %s %c incx %d incy %d", fort ? "sgemv_" : "cblas_sgemv",
           order == RowMajor ? "row" : "col", tr == Trans ? 'T' : 'N', incx, incy);
  D2 d = __enzyme_autodiff_d2((void *)loss, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dup, y,
                              dy, alpha, beta);
  snprintf(nm, sizeof nm, "%s dA", lab);
  CHECK_GRADF(nm, a, da, SA, loss(a, x, y, alpha, beta));
  snprintf(nm, sizeof nm, "%s dx", lab);
  CHECK_GRADF(nm, x, dx, lx, loss(a, x, y, alpha, beta));
  snprintf(nm, sizeof nm, "%s dy", lab);
  CHECK_GRADF(nm, y, dy, ly, loss(a, x, y, alpha, beta));
  snprintf(nm, sizeof nm, "%s dalpha", lab);
  CHECK(nm, d.da, FD(alpha, loss(a, x, y, alpha, beta), FH), FTOL);
  snprintf(nm, sizeof nm, "%s dbeta", lab);
  CHECK(nm, d.db, FD(beta, loss(a, x, y, alpha, beta), FH), FTOL);
  float ta[64], tx[32], ty[32];
  fillf(ta, SA, 7.0), fillf(tx, lx, 8.0), fillf(ty, ly, 9.0);
  double want = 0.4 * d.da + 0.9 * d.db + along(ta, da, SA) + along(tx, dx, lx) +
                along(ty, dy, ly);
  double t = __enzyme_fwddiff((void *)loss, enzyme_dup, a, ta, enzyme_dup, x, tx, enzyme_dup, y,
                              ty, alpha, 0.4, beta, 0.9);
  snprintf(nm, sizeof nm, "%s forward", lab);
  CHECK(nm, t, want, 1e-4);
  /* A constant: dx and dy alone. */
  float dx2[32] = {0}, dy2[32] = {0};
  __enzyme_autodiff_d2((void *)loss, enzyme_const, a, enzyme_dup, x, dx2, enzyme_dup, y, dy2,
                       alpha, beta);
  snprintf(nm, sizeof nm, "%s const A: dx", lab);
  for (int i = 0; i < lx; i++)
    CHECK(nm, dx2[i], dx[i], 1e-5);
  snprintf(nm, sizeof nm, "%s const A: dy", lab);
  for (int i = 0; i < ly; i++)
    CHECK(nm, dy2[i], dy[i], 1e-5);
}

int main(void) {
  for (int o = 0; o < 2; o++)
    for (int t = 0; t < 2; t++) {
      one(0, o ? RowMajor : ColMajor, t ? Trans : NoTrans, 1, 1);
      one(0, o ? RowMajor : ColMajor, t ? Trans : NoTrans, 2, -2);
    }
  for (int t = 0; t < 2; t++) {
    one(1, ColMajor, t ? Trans : NoTrans, 1, 1);
    one(1, ColMajor, t ? Trans : NoTrans, -1, 3);
  }
  CHECK_DONE();
}
