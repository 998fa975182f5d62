/* logsumexp: f(x) = m + log sum_i exp(x_i - m), m = max_i x_i (stable).
 * Gradient w.r.t. x: softmax(x). Size: n. */
#define PROBLEM_NAME "logsumexp"
typedef struct { int n; double *x; char size[64]; } ctx_t;

static REAL objective(const REAL *x, const ctx_t *c) {
  REAL m = x[0];
  for (int i = 1; i < c->n; i++)
    if (x[i] > m) m = x[i];
  REAL s = 0;
  for (int i = 0; i < c->n; i++) s += exp(x[i] - m);
  return m + log(s);
}

static void hand_grad(const ctx_t *c, const double *x, double *g) {
  double m = x[0], s = 0;
  for (int i = 1; i < c->n; i++) if (x[i] > m) m = x[i];
  for (int i = 0; i < c->n; i++) { g[i] = exp(x[i] - m); s += g[i]; }
  double inv = 1.0 / s;
  for (int i = 0; i < c->n; i++) g[i] *= inv;
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->n = argc > 0 ? atoi(argv[0]) : 1000;
  c->x = (double *)malloc(sizeof(double) * c->n);
  rng_seed(3);
  for (int i = 0; i < c->n; i++) c->x[i] = rng_unif(-5, 5);
  snprintf(c->size, sizeof c->size, "n=%d", c->n);
}
static int prob_nin(const ctx_t *c) { return c->n; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
