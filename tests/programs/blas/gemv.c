// FLAGS: -lblas
// cblas_dgemv (row and column major, both transposes, padded leading
// dimension, strided and negative-stride vectors) and Fortran dgemv_, in
// reverse and forward mode against central finite differences.
#include "blas_test.h"

static int ORDER, TR, M = 3, N = 4, LDA, SA, INCX = 1, INCY = 1, FORT = 0;
typedef struct {
  double da, db;
} D2;
static int xlen(void) { return TR == Trans ? M : N; }
static int ylen(void) { return TR == Trans ? N : M; }
static int span(int n, int inc) { return 1 + (n - 1) * (inc < 0 ? -inc : inc); }

double loss(const double *a, const double *x, const double *y0, double alpha, double beta) {
  double y[32];
  int ly = span(ylen(), INCY);
  for (int i = 0; i < ly; i++)
    y[i] = y0[i];
  if (FORT) {
    char t = TR == Trans ? 'T' : 'N';
    dgemv_(&t, &M, &N, &alpha, a, &LDA, x, &INCX, &beta, y, &INCY);
  } else {
    cblas_dgemv(ORDER, TR, M, N, alpha, a, LDA, x, INCX, beta, y, INCY);
  }
  double s = 0.0;
  for (int i = 0; i < ly; i++)
    s += (0.5 + 0.25 * i) * y[i] * y[i];
  return s;
}

D2 __enzyme_autodiff_d2(void *, ...);

static void one(int fort, int order, int tr, int incx, int incy) {
  FORT = fort, ORDER = order, TR = tr, INCX = incx, INCY = incy;
  LDA = (order == ColMajor ? M : N) + 1;
  SA = LDA * (order == ColMajor ? N : M);
  int lx = span(xlen(), incx), ly = span(ylen(), incy);
  double a[64], x[32], y[32], da[64] = {0}, dx[32] = {0}, dy[32] = {0};
  double alpha = 1.2, beta = -0.6;
  fill(a, SA, 0.2), fill(x, lx, 2.2), fill(y, ly, 3.1);
  char lab[64], nm[96];
  snprintf(lab, sizeof lab, "%s %s %c incx %d incy %d", fort ? "dgemv_" : "cblas",
           order == RowMajor ? "row" : "col", tr == Trans ? 'T' : 'N', incx, incy);
  /* (dgemv_ takes alpha and beta by reference: their slots in the loss's frame.) */
  D2 d = __enzyme_autodiff_d2((void *)loss, enzyme_dup, a, da, enzyme_dup, x, dx, enzyme_dup, y,
                              dy, alpha, beta);
  snprintf(nm, sizeof nm, "%s dA", lab);
  CHECK_GRAD(nm, a, da, SA, loss(a, x, y, alpha, beta));
  snprintf(nm, sizeof nm, "%s dx", lab);
  CHECK_GRAD(nm, x, dx, lx, loss(a, x, y, alpha, beta));
  snprintf(nm, sizeof nm, "%s dy", lab);
  CHECK_GRAD(nm, y, dy, ly, loss(a, x, y, alpha, beta));
  snprintf(nm, sizeof nm, "%s dalpha", lab);
  CHECK(nm, d.da, FD(alpha, loss(a, x, y, alpha, beta), 1e-6), 1e-6);
  snprintf(nm, sizeof nm, "%s dbeta", lab);
  CHECK(nm, d.db, FD(beta, loss(a, x, y, alpha, beta), 1e-6), 1e-6);
  double ta[64], tx[32], ty[32];
  fill(ta, SA, 7.0), fill(tx, lx, 8.0), fill(ty, ly, 9.0);
  double want = 0.4 * d.da + 0.9 * d.db;
  for (int i = 0; i < SA; i++)
    want += ta[i] * da[i];
  for (int i = 0; i < lx; i++)
    want += tx[i] * dx[i];
  for (int i = 0; i < ly; i++)
    want += ty[i] * dy[i];
  double t = __enzyme_fwddiff((void *)loss, enzyme_dup, a, ta, enzyme_dup, x, tx, enzyme_dup, y,
                              ty, alpha, 0.4, beta, 0.9);
  snprintf(nm, sizeof nm, "%s forward", lab);
  CHECK(nm, t, want, 1e-9);
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
