/* sort: insertion sort of a copy of x, then f = sum_i w_i * sorted_i.
 * Gradient w.r.t. x: g[perm[i]] = w_i. O(n^2) work (and ADOL-C tape). Size: n. */
#define PROBLEM_NAME "sort"
typedef struct { int n; double *x; double *w; int *perm; char size[64]; } ctx_t;

static REAL objective(const REAL *x, const ctx_t *c) {
  int n = c->n;
  REAL *s = NEW_REAL(n);
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    REAL key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) { s[j + 1] = s[j]; j--; }
    s[j + 1] = key;
  }
  REAL f = 0;
  for (int i = 0; i < n; i++) f += c->w[i] * s[i];
  DEL_REAL(s);
  return f;
}

/* Sort the indices (same insertion sort, on the index array). */
static void hand_grad(const ctx_t *c, const double *x, double *g) {
  int n = c->n, *p = c->perm;
  for (int i = 0; i < n; i++) p[i] = i;
  for (int i = 1; i < n; i++) {
    int key = p[i], j = i - 1;
    double kv = x[key];
    while (j >= 0 && x[p[j]] > kv) { p[j + 1] = p[j]; j--; }
    p[j + 1] = key;
  }
  for (int i = 0; i < n; i++) g[p[i]] = c->w[i];
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->n = argc > 0 ? atoi(argv[0]) : 1000;
  c->x = (double *)malloc(sizeof(double) * c->n);
  c->w = (double *)malloc(sizeof(double) * c->n);
  c->perm = (int *)malloc(sizeof(int) * c->n);
  /* a shuffled grid with jitter: distinct values at least 0.5/n apart, so
   * the central-difference step never reorders them */
  rng_seed(7);
  for (int i = 0; i < c->n; i++) c->perm[i] = i;
  for (int i = c->n - 1; i > 0; i--) {
    int j = (int)(rng_u01() * (i + 1)), t = c->perm[i];
    c->perm[i] = c->perm[j]; c->perm[j] = t;
  }
  for (int i = 0; i < c->n; i++) {
    c->x[i] = (c->perm[i] + rng_unif(0.25, 0.75)) / c->n;
    c->w[i] = rng_unif(-1, 1);
  }
  snprintf(c->size, sizeof c->size, "n=%d", c->n);
}
static int prob_nin(const ctx_t *c) { return c->n; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
