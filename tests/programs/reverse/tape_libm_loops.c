/* libm results in loops kept on the tape (rev/cache.rs, keeps_libm_result):
 * where recomputing them would need a value only the tape has (state that
 * the loop overwrites, a loop-carried phi) or more than one libm call, the
 * reverse sweep reads them from the tape; where they are recomputable from
 * read-only memory and invariants alone, or are sin/cos, they are
 * recomputed. Each kernel's every partial is checked against a central
 * difference. */
#include "../check.h"
#include <string.h>

enum { N = 6, B = 5 };

#define SIG(z) (1.0 / (1.0 + exp(-(z))))

/* An LSTM cell over a few steps: h and c are overwritten each step. */
static double lstm_like(const double *x, const double *w, double *h, double *c, int n, int b) {
  double loss = 0;
  for (int t = 0; t < n; t++) {
    for (int j = 0; j < b; j++) {
      double f = SIG(x[t * b + j] * w[j] + w[b + j]);
      double i = SIG(h[j] * w[2 * b + j]);
      double g = tanh(h[j] * w[3 * b + j] + x[t * b + j]);
      c[j] = c[j] * f + i * g;
      h[j] = tanh(c[j]) * SIG(h[j] + w[j]);
    }
    for (int j = 0; j < b; j++) loss += h[j] * x[t * b + j];
  }
  return loss;
}

/* Two libm calls in a chain over read-only memory. */
static double chained(const double *x, const double *w, double *h, double *c, int n, int b) {
  (void)h;
  (void)c;
  double s = 0;
  for (int k = 0; k < n * b; k++) s += tanh(exp(0.3 * x[k]) * w[k % b]) * x[k];
  return s;
}

/* logsumexp: exp of read-only memory minus an invariant, recomputed. */
static double lse(const double *x, const double *w, double *h, double *c, int n, int b) {
  (void)h;
  (void)c;
  double m = x[0];
  for (int k = 1; k < n * b; k++)
    if (x[k] > m) m = x[k];
  double s = 0;
  for (int k = 0; k < n * b; k++) s += exp(x[k] - m) * w[k % b];
  return m + log(s);
}

/* A loop-carried recurrence through tanh, and sin of overwritten state. */
static double recurrence(const double *x, const double *w, double *h, double *c, int n, int b) {
  double a = 0.1, s = 0;
  for (int k = 0; k < n * b; k++) {
    a = tanh(a * w[k % b] + x[k]);
    double t = h[k % b];
    h[k % b] = a;
    s += sin(t) * t + exp(t) * c[k % b];
  }
  return s + a;
}

/* In place: x[k] = exp(x[k]) overwrites the libm call's operand; the call
 * runs on some iterations only. */
static double inplace(const double *x0, const double *w, double *h, double *c, int n, int b) {
  (void)x0;
  double s = 0;
  for (int k = 0; k < n * b; k++) {
    if (w[k % b] > 0.0) c[k % b] = exp(c[k % b] * w[k % b]);
    s += c[k % b] * h[k % b] + log(1.0 + c[k % b] * c[k % b]);
  }
  return s;
}

static double xs[N * B], ws[4 * B], hs[B], cs[B];
static double dxs[N * B], dws[4 * B], dhs[B], dcs[B];
static double h0[B], c0[B];

static void fill(void) {
  for (int k = 0; k < N * B; k++) xs[k] = 0.3 + 0.17 * k - 0.011 * k * k;
  for (int k = 0; k < 4 * B; k++) ws[k] = 0.5 - 0.09 * k;
  for (int k = 0; k < B; k++) h0[k] = 0.2 * k - 0.3, c0[k] = 0.1 - 0.15 * k;
  memcpy(hs, h0, sizeof hs);
  memcpy(cs, c0, sizeof cs);
  memset(dxs, 0, sizeof dxs);
  memset(dws, 0, sizeof dws);
  memset(dhs, 0, sizeof dhs);
  memset(dcs, 0, sizeof dcs);
}

/* The primal at the initial state (h and c are overwritten by a call). */
#define PRIMAL(f) (memcpy(hs, h0, sizeof hs), memcpy(cs, c0, sizeof cs), f(xs, ws, hs, cs, N, B))
#define FD_ARR(f, arr, k, label)                                                        \
  do {                                                                                  \
    double keep = arr[k];                                                               \
    arr[k] = keep + 1e-6;                                                               \
    double up = PRIMAL(f);                                                              \
    arr[k] = keep - 1e-6;                                                               \
    double dn = PRIMAL(f);                                                              \
    arr[k] = keep;                                                                      \
    CHECK(label, got[k], (up - dn) / 2e-6, 1e-6);                                       \
  } while (0)

#define CHECK_KERNEL(f)                                                                 \
  do {                                                                                  \
    fill();                                                                             \
    __enzyme_autodiff((void *)f, enzyme_dup, xs, dxs, enzyme_dup, ws, dws, enzyme_dup, \
                      hs, dhs, enzyme_dup, cs, dcs, enzyme_const, N, enzyme_const, B);  \
    char label[64];                                                                     \
    double *got;                                                                        \
    got = dxs;                                                                          \
    for (int k = 0; k < N * B; k++) {                                                   \
      snprintf(label, sizeof label, #f " dx[%d]", k);                                  \
      FD_ARR(f, xs, k, label);                                                          \
    }                                                                                   \
    got = dws;                                                                          \
    for (int k = 0; k < 4 * B; k++) {                                                   \
      snprintf(label, sizeof label, #f " dw[%d]", k);                                  \
      FD_ARR(f, ws, k, label);                                                          \
    }                                                                                   \
    got = dhs;                                                                          \
    for (int k = 0; k < B; k++) {                                                       \
      snprintf(label, sizeof label, #f " dh[%d]", k);                                  \
      FD_ARR(f, h0, k, label);                                                          \
    }                                                                                   \
    got = dcs;                                                                          \
    for (int k = 0; k < B; k++) {                                                       \
      snprintf(label, sizeof label, #f " dc[%d]", k);                                  \
      FD_ARR(f, c0, k, label);                                                          \
    }                                                                                   \
  } while (0)

int main(void) {
  CHECK_KERNEL(lstm_like);
  CHECK_KERNEL(chained);
  CHECK_KERNEL(lse);
  CHECK_KERNEL(recurrence);
  CHECK_KERNEL(inplace);
  CHECK_DONE();
}
