/* gmm: Gaussian mixture model log-likelihood with a Wishart prior
 * (bench-spec.md, "GMM"). x = [alphas (k), means (k*d), icf (k*(d+d(d-1)/2))];
 * icf[k][0..d) are the logs of Q_k's diagonal, the rest its strictly-lower
 * entries in column-major order. Data points, gamma and m are constants.
 * Size: d k n. */
#define PROBLEM_NAME "gmm"
#define PROB_FD_TOL 1e-4
typedef struct {
  int d, k, n, isz;
  double gamma;
  int m;
  double const_term;
  double *X;                          /* data points n*d */
  double *x;                          /* packed active inputs */
  double *Qd, *sq, *xc, *y, *mt, *qty; /* scratch for the hand gradient */
  char size[64];
} ctx_t;

HELPER REAL gmm_lse(const REAL *v, int n) {
  REAL mx = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] > mx) mx = v[i];
  REAL s = 0;
  for (int i = 0; i < n; i++) s += exp(v[i] - mx);
  return mx + log(s);
}

static REAL objective(const REAL *x, const ctx_t *c) {
  const int d = c->d, K = c->k, n = c->n, isz = c->isz;
  const REAL *alphas = x, *means = x + K, *icf = x + K + K * d;
  REAL *sum_qs = NEW_REAL(K), *Qd = NEW_REAL(K * d), *xc = NEW_REAL(d), *Qxc = NEW_REAL(d), *mt = NEW_REAL(K);
  for (int k = 0; k < K; k++) {
    sum_qs[k] = 0;
    for (int j = 0; j < d; j++) {
      sum_qs[k] += icf[k * isz + j];
      Qd[k * d + j] = exp(icf[k * isz + j]);
    }
  }
  REAL slse = 0;
  for (int i = 0; i < n; i++) {
    const double *xi = c->X + (size_t)i * d;
    for (int k = 0; k < K; k++) {
      const REAL *L = icf + k * isz;
      for (int j = 0; j < d; j++) xc[j] = xi[j] - means[k * d + j];
      for (int j = 0; j < d; j++) Qxc[j] = Qd[k * d + j] * xc[j];
      int li = d;
      for (int col = 0; col < d; col++)
        for (int row = col + 1; row < d; row++) Qxc[row] += L[li++] * xc[col];
      REAL sq = 0;
      for (int j = 0; j < d; j++) sq += Qxc[j] * Qxc[j];
      mt[k] = alphas[k] + sum_qs[k] - 0.5 * sq;
    }
    slse += gmm_lse(mt, K);
  }
  REAL lse_alphas = gmm_lse(alphas, K);
  REAL prior = 0;
  for (int k = 0; k < K; k++) {
    REAL fro = 0;
    for (int j = 0; j < d; j++) fro += Qd[k * d + j] * Qd[k * d + j];
    for (int j = d; j < isz; j++) fro += icf[k * isz + j] * icf[k * isz + j];
    prior += 0.5 * c->gamma * c->gamma * fro - (double)c->m * sum_qs[k];
  }
  REAL f = c->const_term + slse - (double)n * lse_alphas + prior;
  DEL_REAL(sum_qs); DEL_REAL(Qd); DEL_REAL(xc); DEL_REAL(Qxc); DEL_REAL(mt);
  return f;
}

static void hand_grad(const ctx_t *c, const double *x, double *g) {
  const int d = c->d, K = c->k, n = c->n, isz = c->isz;
  const double *alphas = x, *means = x + K, *icf = x + K + K * d;
  double *ga = g, *gm = g + K, *gi = g + K + K * d;
  double *Qd = c->Qd, *sq = c->sq, *XC = c->xc, *Y = c->y, *mt = c->mt, *qty = c->qty;
  memset(g, 0, sizeof(double) * (K + K * d + K * isz));
  for (int k = 0; k < K; k++) {
    sq[k] = 0;
    for (int j = 0; j < d; j++) { sq[k] += icf[k * isz + j]; Qd[k * d + j] = exp(icf[k * isz + j]); }
  }
  for (int i = 0; i < n; i++) {
    const double *xi = c->X + (size_t)i * d;
    double mx = -INFINITY;
    for (int k = 0; k < K; k++) {
      const double *L = icf + k * isz;
      double *xc = XC + k * d, *y = Y + k * d;
      for (int j = 0; j < d; j++) { xc[j] = xi[j] - means[k * d + j]; y[j] = Qd[k * d + j] * xc[j]; }
      int li = d;
      for (int col = 0; col < d; col++)
        for (int row = col + 1; row < d; row++) y[row] += L[li++] * xc[col];
      double s = 0;
      for (int j = 0; j < d; j++) s += y[j] * y[j];
      mt[k] = alphas[k] + sq[k] - 0.5 * s;
      if (mt[k] > mx) mx = mt[k];
    }
    double se = 0;
    for (int k = 0; k < K; k++) { mt[k] = exp(mt[k] - mx); se += mt[k]; }
    double inv = 1.0 / se;
    for (int k = 0; k < K; k++) {
      double p = mt[k] * inv; /* posterior weight of component k */
      const double *L = icf + k * isz, *xc = XC + k * d, *y = Y + k * d;
      double *gL = gi + k * isz;
      ga[k] += p;
      for (int j = 0; j < d; j++) {
        qty[j] = Qd[k * d + j] * y[j];
        gL[j] += p * (1.0 - y[j] * xc[j] * Qd[k * d + j]);
      }
      int li = d;
      for (int col = 0; col < d; col++)
        for (int row = col + 1; row < d; row++, li++) {
          qty[col] += L[li] * y[row];
          gL[li] -= p * y[row] * xc[col];
        }
      for (int j = 0; j < d; j++) gm[k * d + j] += p * qty[j];
    }
  }
  double mx = alphas[0], se = 0;
  for (int k = 1; k < K; k++) if (alphas[k] > mx) mx = alphas[k];
  for (int k = 0; k < K; k++) se += exp(alphas[k] - mx);
  double g2 = c->gamma * c->gamma;
  for (int k = 0; k < K; k++) {
    ga[k] -= n * exp(alphas[k] - mx) / se;
    for (int j = 0; j < d; j++) gi[k * isz + j] += g2 * Qd[k * d + j] * Qd[k * d + j] - c->m;
    for (int j = d; j < isz; j++) gi[k * isz + j] += g2 * icf[k * isz + j];
  }
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->d = argc > 0 ? atoi(argv[0]) : 2;
  c->k = argc > 1 ? atoi(argv[1]) : 5;
  c->n = argc > 2 ? atoi(argv[2]) : 1000;
  int d = c->d, K = c->k, n = c->n;
  c->isz = d * (d + 1) / 2;
  c->gamma = 1.0;
  c->m = 1;
  int np = K + K * d + K * c->isz;
  c->x = (double *)malloc(sizeof(double) * np);
  c->X = (double *)malloc(sizeof(double) * (size_t)n * d);
  c->Qd = (double *)malloc(sizeof(double) * K * d);
  c->sq = (double *)malloc(sizeof(double) * K);
  c->xc = (double *)malloc(sizeof(double) * K * d);
  c->y = (double *)malloc(sizeof(double) * K * d);
  c->mt = (double *)malloc(sizeof(double) * K);
  c->qty = (double *)malloc(sizeof(double) * d);
  rng_seed(11);
  for (int k = 0; k < K; k++) c->x[k] = rng_normal();
  for (int i = 0; i < K * d; i++) c->x[K + i] = rng_u01();
  for (int i = 0; i < K * c->isz; i++) c->x[K + K * d + i] = rng_unif(-0.3, 0.3);
  for (size_t i = 0; i < (size_t)n * d; i++) c->X[i] = rng_u01();
  /* constants: -n d/2 log(2 pi) - k (n' d (log gamma - log(2)/2) - log Gamma_d(n'/2)) */
  double np2 = d + c->m + 1, lgd = 0.25 * d * (d - 1) * log(M_PI);
  for (int j = 1; j <= d; j++) lgd += lgamma(0.5 * np2 + 0.5 * (1 - j));
  c->const_term = -0.5 * n * d * log(2 * M_PI) - K * (np2 * d * (log(c->gamma) - 0.5 * log(2.0)) - lgd);
  snprintf(c->size, sizeof c->size, "d=%d k=%d n=%d", d, K, n);
}
static int prob_nin(const ctx_t *c) { return c->k + c->k * c->d + c->k * c->isz; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
