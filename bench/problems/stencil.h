/* stencil: a 1-D finite-difference energy over a read-only array,
 *   f(x) = sum_{i=1}^{n-2} (x[i-1] - 2 x[i] + x[i+1])^2 / 2 + sum_i x[i] x[i+1],
 * gradient w.r.t. x. Every iteration reads the neighbours x[i-1], x[i+1]
 * (at -O2 GVN turns them into loop-carried values); nothing is written, so
 * a reverse sweep can re-read x instead of taping. Size: n. */
#define PROBLEM_NAME "stencil"
typedef struct { int n; double *x; char size[64]; } ctx_t;

static REAL objective(const REAL *x, const ctx_t *c) {
  REAL s = 0;
  for (int i = 1; i < c->n - 1; i++) {
    REAL r = x[i - 1] - 2 * x[i] + x[i + 1];
    s += 0.5 * r * r;
  }
  for (int i = 0; i < c->n - 1; i++) s += x[i] * x[i + 1];
  return s;
}

static void hand_grad(const ctx_t *c, const double *x, double *g) {
  int n = c->n;
  for (int i = 0; i < n; i++) g[i] = 0;
  for (int i = 1; i < n - 1; i++) {
    double r = x[i - 1] - 2 * x[i] + x[i + 1];
    g[i - 1] += r;
    g[i] -= 2 * r;
    g[i + 1] += r;
  }
  for (int i = 0; i < n - 1; i++) {
    g[i] += x[i + 1];
    g[i + 1] += x[i];
  }
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->n = argc > 0 ? atoi(argv[0]) : 1000;
  c->x = (double *)malloc(sizeof(double) * c->n);
  rng_seed(11);
  for (int i = 0; i < c->n; i++) c->x[i] = rng_unif(-1, 1);
  snprintf(c->size, sizeof c->size, "n=%d", c->n);
}
static int prob_nin(const ctx_t *c) { return c->n; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
