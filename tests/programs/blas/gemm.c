// FLAGS: -lblas
// cblas_dgemm (row and column major, every transpose, leading dimensions
// larger than the rows) and Fortran dgemm_, in reverse and forward mode:
// gradients of a weighted sum of C = alpha op(A) op(B) + beta C0 with
// respect to A, B, C0, alpha and beta against central finite differences;
// the forward tangent against the reverse gradient along the tangents.
#include "blas_test.h"

static int ORDER, TA, TB, M = 3, N = 4, K = 2, LDA, LDB, LDC, SA, SB, SC;
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

static double csum(const double *c) {
  double s = 0.0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      s += weight(i, j) * c[ORDER == ColMajor ? i + j * LDC : i * LDC + j];
  return s;
}

double loss(const double *a, const double *b, const double *c0, double alpha, double beta) {
  double *c = malloc(SC * sizeof(double));
  memcpy(c, c0, SC * sizeof(double));
  cblas_dgemm(ORDER, TA, TB, M, N, K, alpha, a, LDA, b, LDB, beta, c, LDC);
  double s = csum(c);
  free(c);
  return s;
}

/* Two products: E = A B, then C = E^T E scaled (the second reads the
 * first's output), and the first factor overwritten afterwards (the
 * reverse must not read it again). */
double chain(double *a, const double *b, double alpha) {
  double e[16], c[16];
  cblas_dgemm(ColMajor, NoTrans, NoTrans, 3, 4, 2, alpha, a, 3, b, 2, 0.0, e, 3);
  cblas_dgemm(ColMajor, Trans, NoTrans, 4, 4, 3, 1.0, e, 3, e, 3, 0.0, c, 4);
  for (int i = 0; i < 6; i++)
    a[i] = -1.0; /* overwritten after use */
  double s = 0.0;
  for (int i = 0; i < 16; i++)
    s += c[i] * (1.0 + 0.01 * i);
  return s;
}

double floss(const double *a, const double *b, const double *c0, double *alpha, double *beta) {
  double *c = malloc(SC * sizeof(double));
  memcpy(c, c0, SC * sizeof(double));
  char ta = TA == Trans ? 'T' : 'N', tb = TB == Trans ? 'T' : 'N';
  dgemm_(&ta, &tb, &M, &N, &K, alpha, a, &LDA, b, &LDB, beta, c, &LDC);
  double s = csum(c);
  free(c);
  return s;
}

D2 __enzyme_autodiff_d2(void *, ...);
double __enzyme_autodiff_one(void *, ...);

static void one(int order, int ta, int tb) {
  ORDER = order, TA = ta, TB = tb;
  dims(order, ta, M, K, 1, &LDA, &SA);
  dims(order, tb, K, N, 2, &LDB, &SB);
  dims(order, NoTrans, M, N, 1, &LDC, &SC);
  double a[64], b[64], c[64], da[64] = {0}, db[64] = {0}, dc[64] = {0};
  double alpha = 1.3, beta = 0.7;
  fill(a, SA, 0.1), fill(b, SB, 1.1), fill(c, SC, 2.3);
  char lab[64];
  snprintf(lab, sizeof lab, "%s %c%c", order == RowMajor ? "row" : "col", ta == Trans ? 'T' : 'N',
           tb == Trans ? 'T' : 'N');
  D2 d = __enzyme_autodiff_d2((void *)loss, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_dup, c, dc,
                           alpha, beta);
  char nm[96];
  snprintf(nm, sizeof nm, "%s dA", lab);
  CHECK_GRAD(nm, a, da, SA, loss(a, b, c, alpha, beta));
  snprintf(nm, sizeof nm, "%s dB", lab);
  CHECK_GRAD(nm, b, db, SB, loss(a, b, c, alpha, beta));
  snprintf(nm, sizeof nm, "%s dC0", lab);
  CHECK_GRAD(nm, c, dc, SC, loss(a, b, c, alpha, beta));
  snprintf(nm, sizeof nm, "%s dalpha", lab);
  CHECK(nm, d.da, FD(alpha, loss(a, b, c, alpha, beta), 1e-6), 1e-6);
  snprintf(nm, sizeof nm, "%s dbeta", lab);
  CHECK(nm, d.db, FD(beta, loss(a, b, c, alpha, beta), 1e-6), 1e-6);
  /* Forward: tangents ta/tb/tc/talpha/tbeta; the reverse gradient along them. */
  double ta_[64], tb_[64], tc_[64];
  fill(ta_, SA, 5.0), fill(tb_, SB, 6.0), fill(tc_, SC, 7.0);
  double want = 0.3 * d.da - 0.2 * d.db;
  for (int i = 0; i < SA; i++)
    want += ta_[i] * da[i];
  for (int i = 0; i < SB; i++)
    want += tb_[i] * db[i];
  for (int i = 0; i < SC; i++)
    want += tc_[i] * dc[i];
  double t = __enzyme_fwddiff((void *)loss, enzyme_dup, a, ta_, enzyme_dup, b, tb_, enzyme_dup, c,
                              tc_, alpha, 0.3, beta, -0.2);
  snprintf(nm, sizeof nm, "%s forward", lab);
  CHECK(nm, t, want, 1e-9);
  if (order == ColMajor) {
    /* Fortran dgemm_: alpha and beta by reference (their shadows). */
    double dfa[64] = {0}, dfb[64] = {0}, dfc[64] = {0}, dal = 0, dbe = 0;
    __enzyme_autodiff((void *)floss, enzyme_dup, a, dfa, enzyme_dup, b, dfb, enzyme_dup, c, dfc,
                      enzyme_dup, &alpha, &dal, enzyme_dup, &beta, &dbe);
    snprintf(nm, sizeof nm, "%s dgemm_", lab);
    for (int i = 0; i < SA; i++)
      CHECK(nm, dfa[i], da[i], 1e-12);
    for (int i = 0; i < SB; i++)
      CHECK(nm, dfb[i], db[i], 1e-12);
    for (int i = 0; i < SC; i++)
      CHECK(nm, dfc[i], dc[i], 1e-12);
    CHECK(nm, dal, d.da, 1e-12);
    CHECK(nm, dbe, d.db, 1e-12);
    double tal = 0.3, tbe = -0.2;
    double ft = __enzyme_fwddiff((void *)floss, enzyme_dup, a, ta_, enzyme_dup, b, tb_, enzyme_dup,
                                 c, tc_, enzyme_dup, &alpha, &tal, enzyme_dup, &beta, &tbe);
    snprintf(nm, sizeof nm, "%s dgemm_ forward", lab);
    CHECK(nm, ft, want, 1e-9);
  }
}

int main(void) {
  for (int o = 0; o < 2; o++)
    for (int ta = 0; ta < 2; ta++)
      for (int tb = 0; tb < 2; tb++)
        one(o ? RowMajor : ColMajor, ta ? Trans : NoTrans, tb ? Trans : NoTrans);
  /* chain */
  double a[6], b[8], da[6] = {0}, db[8] = {0}, alpha = 0.9;
  fill(a, 6, 0.4), fill(b, 8, 1.7);
  double a0[6];
  memcpy(a0, a, sizeof a);
  double dal = __enzyme_autodiff_one((void *)chain, enzyme_dup, a, da, enzyme_dup, b, db, alpha);
  memcpy(a, a0, sizeof a);
  double w[6];
  for (int i = 0; i < 6; i++) {
    memcpy(w, a0, sizeof w);
    w[i] += 1e-6;
    double p = chain(w, b, alpha);
    memcpy(w, a0, sizeof w);
    w[i] -= 1e-6;
    double q = chain(w, b, alpha);
    CHECK("chain dA", da[i], (p - q) / 2e-6, 1e-6);
  }
  for (int i = 0; i < 8; i++) {
    memcpy(w, a0, sizeof w);
    CHECK("chain dB", db[i], FD(b[i], (memcpy(w, a0, sizeof w), chain(w, b, alpha)), 1e-6), 1e-6);
  }
  memcpy(w, a0, sizeof w);
  CHECK("chain dalpha", dal, FD(alpha, (memcpy(w, a0, sizeof w), chain(w, b, alpha)), 1e-6), 1e-6);
  CHECK_DONE();
}
