/* fft: recursive radix-2 decimation-in-time FFT of n = 2^k complex values
 * (x interleaved: re, im), then f = sum_k w_k |X_k|^2 with fixed weights.
 * Gradient w.r.t. x: 2 [Re z, Im z] with z = F^H (W X) = conj(F conj(W X)).
 * Size: n. */
#define PROBLEM_NAME "fft"
#define PROB_FD_TOL 1e-5
typedef struct { int n; double *x; double *w; double *tw; double *buf; char size[64]; } ctx_t;

/* out[0..2m) <- FFT of the m complex values in[0], in[s], in[2s], ...;
 * tw holds e^{-2 pi i j / n} for the top-level n; tstride = n / m. */
HELPER void fft_rec(const REAL *in, int s, REAL *out, int m, const double *tw, int tstride) {
  if (m == 1) { out[0] = in[0]; out[1] = in[1]; return; }
  int h = m / 2;
  fft_rec(in, 2 * s, out, h, tw, 2 * tstride);
  fft_rec(in + 2 * s, 2 * s, out + 2 * h, h, tw, 2 * tstride);
  for (int k = 0; k < h; k++) {
    double wr = tw[2 * k * tstride], wi = tw[2 * k * tstride + 1];
    REAL *e = out + 2 * k, *o = out + 2 * (k + h);
    REAL tr = wr * o[0] - wi * o[1];
    REAL ti = wr * o[1] + wi * o[0];
    REAL er = e[0], ei = e[1];
    e[0] = er + tr; e[1] = ei + ti;
    o[0] = er - tr; o[1] = ei - ti;
  }
}

static REAL objective(const REAL *x, const ctx_t *c) {
  int n = c->n;
  REAL *X = NEW_REAL(2 * n);
  fft_rec(x, 1, X, n, c->tw, 1);
  REAL f = 0;
  for (int k = 0; k < n; k++) f += c->w[k] * (X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1]);
  DEL_REAL(X);
  return f;
}

static void fft_dbl(const double *in, int s, double *out, int m, const double *tw, int tstride) {
  if (m == 1) { out[0] = in[0]; out[1] = in[1]; return; }
  int h = m / 2;
  fft_dbl(in, 2 * s, out, h, tw, 2 * tstride);
  fft_dbl(in + 2 * s, 2 * s, out + 2 * h, h, tw, 2 * tstride);
  for (int k = 0; k < h; k++) {
    double wr = tw[2 * k * tstride], wi = tw[2 * k * tstride + 1];
    double *e = out + 2 * k, *o = out + 2 * (k + h);
    double tr = wr * o[0] - wi * o[1], ti = wr * o[1] + wi * o[0];
    double er = e[0], ei = e[1];
    e[0] = er + tr; e[1] = ei + ti;
    o[0] = er - tr; o[1] = ei - ti;
  }
}

static void hand_grad(const ctx_t *c, const double *x, double *g) {
  int n = c->n;
  double *X = c->buf;
  fft_dbl(x, 1, X, n, c->tw, 1);
  for (int k = 0; k < n; k++) { X[2 * k] *= c->w[k]; X[2 * k + 1] *= -c->w[k]; } /* conj(W X) */
  fft_dbl(X, 1, g, n, c->tw, 1);
  for (int k = 0; k < n; k++) { g[2 * k] *= 2; g[2 * k + 1] *= -2; }               /* 2 conj(.) */
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->n = argc > 0 ? atoi(argv[0]) : 1024;
  int n = c->n;
  if (n < 1 || (n & (n - 1))) { fprintf(stderr, "fft: n must be a power of two\n"); exit(2); }
  c->x = (double *)malloc(sizeof(double) * 2 * n);
  c->w = (double *)malloc(sizeof(double) * n);
  c->tw = (double *)malloc(sizeof(double) * n); /* n/2 complex twiddles */
  c->buf = (double *)malloc(sizeof(double) * 2 * n);
  rng_seed(6);
  for (int i = 0; i < 2 * n; i++) c->x[i] = rng_unif(-1, 1);
  for (int k = 0; k < n; k++) c->w[k] = rng_unif(0.5, 1.5) / n;
  for (int k = 0; k < n / 2; k++) {
    c->tw[2 * k] = cos(-6.283185307179586 * k / n);
    c->tw[2 * k + 1] = sin(-6.283185307179586 * k / n);
  }
  snprintf(c->size, sizeof c->size, "n=%d", n);
}
static int prob_nin(const ctx_t *c) { return 2 * c->n; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
