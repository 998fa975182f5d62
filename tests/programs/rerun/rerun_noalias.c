/* GMM-shaped loops re-run per iteration (modes/reverse/rerun.rs, forced
 * with -enzyme-rs-auto-rerun=1) whose step gets its scratch parameters
 * marked noalias (mark_state_params): the reverse sweep then reloads the
 * read-only inputs and the tables made before the loop instead of taping
 * them. Every partial is checked against a central finite difference.
 *
 * - gmm:        per point and component: centred point in scratch, scaled
 *               by a table of exp(.) made before the loop, a triangular
 *               inner loop over a packed lower triangle (li++), squared
 *               norm into a scratch array of per-component terms, then a
 *               log-sum-exp over the components.
 * - carried:    a scratch accumulator read before it is written each
 *               point (its snapshots must restore it) beside a table made
 *               before the loop.
 * - two_views:  negative case: two pointers into one scratch block are
 *               made before the loop, so neither parameter is the step's
 *               only way to it and neither is marked.
 * - table_later: negative case for the re-run itself: the table the loop
 *               reads is written again after it (not re-run). */
// FLAGS: -fplugin=%plugin -mllvm -enzyme-rs-auto-rerun=1
#include "../check.h"
#include <string.h>

enum { N = 4, K = 3, D = 4 };
#define ISZ (D * (D + 1) / 2)
#define NX (N * D)
#define NP (K + K * D + K * ISZ)

static double lse(const double *v, int n) {
  double mx = v[0];
  for (int i = 1; i < n; i++)
    if (v[i] > mx) mx = v[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(v[i] - mx);
  return mx + log(s);
}

/* p = [alphas (K), means (K*D), icf (K*ISZ)] */
static double gmm(const double *x, const double *p, int n, int kk) {
  const double *alphas = p, *means = p + kk, *icf = p + kk + kk * D;
  double *Qd = malloc(sizeof(double) * kk * D), *xc = malloc(sizeof(double) * D);
  double *Qxc = malloc(sizeof(double) * D), *mt = malloc(sizeof(double) * kk);
  for (int k = 0; k < kk; k++)
    for (int j = 0; j < D; j++) Qd[k * D + j] = exp(icf[k * ISZ + j]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < kk; k++) {
      const double *L = icf + k * ISZ;
      for (int j = 0; j < D; j++) xc[j] = x[i * D + j] - means[k * D + j];
      for (int j = 0; j < D; j++) Qxc[j] = Qd[k * D + j] * xc[j];
      int li = D;
      for (int col = 0; col < D; col++)
        for (int row = col + 1; row < D; row++) Qxc[row] += L[li++] * xc[col];
      double sq = 0;
      for (int j = 0; j < D; j++) sq += Qxc[j] * Qxc[j];
      mt[k] = alphas[k] - 0.5 * sq;
    }
    s += lse(mt, kk);
  }
  free(Qd);
  free(xc);
  free(Qxc);
  free(mt);
  return s;
}

static double carried(const double *x, const double *p, int n, int kk) {
  double *w = malloc(sizeof(double) * D), *acc = malloc(sizeof(double) * D);
  for (int j = 0; j < D; j++) {
    w[j] = exp(0.5 * p[j]);
    acc[j] = p[kk + j];
  }
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < D; j++) acc[j] = 0.7 * acc[j] + w[j] * sin(x[i * D + j]);
    int li = D;
    for (int col = 0; col < D; col++)
      for (int row = col + 1; row < D; row++) s += p[kk + li++] * acc[row] * acc[col];
  }
  free(w);
  free(acc);
  return s;
}

/* The next two run over d = kk + 1 (= D), a run-time bound: their loops
 * stay loops and their scratch stays in memory. */
static double two_views(const double *x, const double *p, int n, int kk) {
  const int d = kk + 1;
  double *buf = malloc(sizeof(double) * 2 * d);
  double *lo = buf, *hi = buf + d;
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) lo[j] = sin(x[i * d + j] * p[j]);
    for (int j = 0; j < d; j++) hi[j] = cos(lo[d - 1 - j] + p[kk + j]);
    int li = d;
    for (int col = 0; col < d; col++)
      for (int row = col + 1; row < d; row++) s += sin(p[kk + li++] * buf[row] * hi[col]);
  }
  free(buf);
  return s;
}

static double table_later(const double *x, const double *p, int n, int kk) {
  const int d = kk + 1;
  double *w = malloc(sizeof(double) * d), *xc = malloc(sizeof(double) * d);
  for (int j = 0; j < d; j++) w[j] = p[j] * p[j];
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = sin(x[i * d + j] * w[j]);
    for (int col = 0; col < d; col++)
      for (int row = col + 1; row < d; row++) s += sin(xc[row] * p[kk + col]) * xc[col];
  }
  for (int j = 0; j < d; j++) w[j] = p[kk + j] * 3.0;
  for (int j = 0; j < d; j++) s += w[j] * x[j];
  free(w);
  free(xc);
  return s;
}

static double xs[NX], ps[NP], dxs[NX], dps[NP];

static void fill(void) {
  for (int k = 0; k < NX; k++) xs[k] = 0.3 + 0.07 * k - 0.004 * k * k;
  for (int k = 0; k < NP; k++) ps[k] = 0.25 * sin(0.7 * k + 0.3);
  memset(dxs, 0, sizeof dxs);
  memset(dps, 0, sizeof dps);
}

#define CHECK_KERNEL(f)                                                                 \
  do {                                                                                  \
    fill();                                                                             \
    double val = f(xs, ps, N, K);                                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, xs, dxs, enzyme_dup, ps, dps, enzyme_const, \
                      N, enzyme_const, K);                                              \
    char label[64];                                                                     \
    CHECK(#f " inputs unchanged", f(xs, ps, N, K), val, 1e-12);                         \
    for (int k = 0; k < NX; k++) {                                                      \
      snprintf(label, sizeof label, #f " dx[%d]", k);                                  \
      CHECK(label, dxs[k], FD(xs[k], f(xs, ps, N, K), 1e-6), 1e-6);                     \
    }                                                                                   \
    for (int k = 0; k < NP; k++) {                                                      \
      snprintf(label, sizeof label, #f " dp[%d]", k);                                  \
      CHECK(label, dps[k], FD(ps[k], f(xs, ps, N, K), 1e-6), 1e-6);                     \
    }                                                                                   \
  } while (0)

int main(void) {
  CHECK_KERNEL(gmm);
  CHECK_KERNEL(carried);
  CHECK_KERNEL(two_views);
  CHECK_KERNEL(table_later);
  CHECK_DONE();
}
