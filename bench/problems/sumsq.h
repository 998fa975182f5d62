/* sumsq: f(x) = sum_i x_i^2, gradient w.r.t. x. Size: n. */
#define PROBLEM_NAME "sumsq"
typedef struct { int n; double *x; char size[64]; } ctx_t;

static REAL objective(const REAL *x, const ctx_t *c) {
  REAL s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i];
  return s;
}

static void hand_grad(const ctx_t *c, const double *x, double *g) {
  for (int i = 0; i < c->n; i++) g[i] = 2 * x[i];
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->n = argc > 0 ? atoi(argv[0]) : 1000;
  c->x = (double *)malloc(sizeof(double) * c->n);
  rng_seed(1);
  for (int i = 0; i < c->n; i++) c->x[i] = rng_unif(-1, 1);
  snprintf(c->size, sizeof c->size, "n=%d", c->n);
}
static int prob_nin(const ctx_t *c) { return c->n; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
