// FLAGS: -lblas
// cblas_sgemm (row and column major, every transpose, leading dimensions
// larger than the rows) and Fortran sgemm_, in reverse and forward mode:
// gradients of a weighted sum of C = alpha op(A) op(B) + beta C0 (float
// data; alpha, beta double in the loss, rounded to float for the call)
// with respect to A, B, C0, alpha and beta against central finite
// differences (FH / FTOL from blas_test.h); the forward tangent against
// the reverse gradient along the tangents; B constant in one variant.
#include "blas_test.h"

static int ORDER, TA, TB, M = 3, N = 4, K = 2, LDA, LDB, LDC, SA, SB, SC, FORT;
typedef struct {
  double da, db;
} D2;

/* Stored rows/cols of a matrix whose op() is r x c. */
static void dims(int order, int trans, int r, int c, int pad, int *ld, int *size) {
  int sr = trans == Trans ? c : r, sc = trans == Trans ? r : c;
  if (order == ColMajor) {
    *ld = sr + pad;
    *size = *ld * sc;
  } else {
    *ld = sc + pad;
    *size = sr * *ld;
  }
}

static double weight(int i, int j) { return 1.0 + 0.1 * i - 0.37 * j; }

double loss(const float *a, const float *b, const float *c0, double alpha, double beta) {
  float *c = malloc(SC * sizeof(float)), al = (float)alpha, be = (float)beta;
  memcpy(c, c0, SC * sizeof(float));
  if (FORT) {
    char ta = TA == Trans ? 'T' : 'N', tb = TB == Trans ? 'T' : 'N';
    sgemm_(&ta, &tb, &M, &N, &K, &al, a, &LDA, b, &LDB, &be, c, &LDC);
  } else {
    cblas_sgemm(ORDER, TA, TB, M, N, K, al, a, LDA, b, LDB, be, c, LDC);
  }
  double s = 0.0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      s += weight(i, j) * c[ORDER == ColMajor ? i + j * LDC : i * LDC + j];
  free(c);
  return s;
}

D2 __enzyme_autodiff_d2(void *, ...);

static double along(const float *t, const float *d, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += (double)t[i] * d[i];
  return s;
}

static void one(int fort, int order, int ta, int tb) {
  FORT = fort, ORDER = order, TA = ta, TB = tb;
  dims(order, ta, M, K, 1, &LDA, &SA);
  dims(order, tb, K, N, 2, &LDB, &SB);
  dims(order, NoTrans, M, N, 1, &LDC, &SC);
  float a[64], b[64], c[64], da[64] = {0}, db[64] = {0}, dc[64] = {0};
  double alpha = 1.3, beta = 0.7;
  fillf(a, SA, 0.1), fillf(b, SB, 1.1), fillf(c, SC, 2.3);
  char lab[64], nm[96];
  snprintf(lab, sizeof lab, "%s %s %c%c", fort ? "sgemm_" : "cblas_sgemm",
           order == RowMajor ? "row" : "col", ta == Trans ? 'T' : 'N', tb == Trans ? 'T' : 'N');
  D2 d = __enzyme_autodiff_d2((void *)loss, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_dup, c,
                              dc, alpha, beta);
  snprintf(nm, sizeof nm, "%s dA", lab);
  CHECK_GRADF(nm, a, da, SA, loss(a, b, c, alpha, beta));
  snprintf(nm, sizeof nm, "%s dB", lab);
  CHECK_GRADF(nm, b, db, SB, loss(a, b, c, alpha, beta));
  snprintf(nm, sizeof nm, "%s dC0", lab);
  CHECK_GRADF(nm, c, dc, SC, loss(a, b, c, alpha, beta));
  snprintf(nm, sizeof nm, "%s dalpha", lab);
  CHECK(nm, d.da, FD(alpha, loss(a, b, c, alpha, beta), FH), FTOL);
  snprintf(nm, sizeof nm, "%s dbeta", lab);
  CHECK(nm, d.db, FD(beta, loss(a, b, c, alpha, beta), FH), FTOL);
  float ta_[64], tb_[64], tc_[64];
  fillf(ta_, SA, 5.0), fillf(tb_, SB, 6.0), fillf(tc_, SC, 7.0);
  double want = 0.3 * d.da - 0.2 * d.db + along(ta_, da, SA) + along(tb_, db, SB) +
                along(tc_, dc, SC);
  double t = __enzyme_fwddiff((void *)loss, enzyme_dup, a, ta_, enzyme_dup, b, tb_, enzyme_dup, c,
                              tc_, alpha, 0.3, beta, -0.2);
  snprintf(nm, sizeof nm, "%s forward", lab);
  CHECK(nm, t, want, 1e-4);
  /* B constant. */
  float da2[64] = {0}, dc2[64] = {0};
  D2 d2 = __enzyme_autodiff_d2((void *)loss, enzyme_dup, a, da2, enzyme_const, b, enzyme_dup, c,
                               dc2, alpha, beta);
  snprintf(nm, sizeof nm, "%s const B: dA", lab);
  for (int i = 0; i < SA; i++)
    CHECK(nm, da2[i], da[i], 1e-5);
  snprintf(nm, sizeof nm, "%s const B: dC0", lab);
  for (int i = 0; i < SC; i++)
    CHECK(nm, dc2[i], dc[i], 1e-5);
  snprintf(nm, sizeof nm, "%s const B: dalpha", lab);
  CHECK(nm, d2.da, d.da, 1e-5);
}

int main(void) {
  for (int o = 0; o < 2; o++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++)
        one(0, o ? RowMajor : ColMajor, ta ? Trans : NoTrans, tb ? Trans : NoTrans);
  for (int ta = 0; ta < 2; ta++)
    for (int tb = 0; tb < 2; tb++)
      one(1, ColMajor, ta ? Trans : NoTrans, tb ? Trans : NoTrans);
  CHECK_DONE();
}
