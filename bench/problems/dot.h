/* dot: f(a, b) = sum_i a_i b_i, gradient w.r.t. a and b (x = [a, b]). Size: n. */
#define PROBLEM_NAME "dot"
typedef struct { int n; double *x; char size[64]; } ctx_t;

static REAL objective(const REAL *x, const ctx_t *c) {
  const REAL *a = x, *b = x + c->n;
  REAL s = 0;
  for (int i = 0; i < c->n; i++) s += a[i] * b[i];
  return s;
}

static void hand_grad(const ctx_t *c, const double *x, double *g) {
  int n = c->n;
  for (int i = 0; i < n; i++) { g[i] = x[n + i]; g[n + i] = x[i]; }
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->n = argc > 0 ? atoi(argv[0]) : 1000;
  c->x = (double *)malloc(sizeof(double) * 2 * c->n);
  rng_seed(2);
  for (int i = 0; i < 2 * c->n; i++) c->x[i] = rng_unif(-1, 1);
  snprintf(c->size, sizeof c->size, "n=%d", c->n);
}
static int prob_nin(const ctx_t *c) { return 2 * c->n; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
