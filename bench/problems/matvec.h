/* matvec: f(A, v) = || A v ||^2 for A m-by-m (row-major), v of length m.
 * Gradient w.r.t. A and v (x = [A, v]). Size: m. */
#define PROBLEM_NAME "matvec"
typedef struct { int m; double *x; double *y; char size[64]; } ctx_t;

static REAL objective(const REAL *x, const ctx_t *c) {
  int m = c->m;
  const REAL *A = x, *v = x + (size_t)m * m;
  REAL f = 0;
  for (int i = 0; i < m; i++) {
    REAL yi = 0;
    for (int j = 0; j < m; j++) yi += A[(size_t)i * m + j] * v[j];
    f += yi * yi;
  }
  return f;
}

/* d/dA_ij = 2 y_i v_j, d/dv = 2 A^T y, y = A v. */
static void hand_grad(const ctx_t *c, const double *x, double *g) {
  int m = c->m;
  const double *A = x, *v = x + (size_t)m * m;
  double *gA = g, *gv = g + (size_t)m * m, *y = c->y;
  for (int j = 0; j < m; j++) gv[j] = 0;
  for (int i = 0; i < m; i++) {
    double yi = 0;
    for (int j = 0; j < m; j++) yi += A[(size_t)i * m + j] * v[j];
    y[i] = 2 * yi;
  }
  for (int i = 0; i < m; i++) {
    const double *Ai = A + (size_t)i * m;
    double *gAi = gA + (size_t)i * m, yi = y[i];
    for (int j = 0; j < m; j++) { gAi[j] = yi * v[j]; gv[j] += yi * Ai[j]; }
  }
}

static void prob_setup(ctx_t *c, int argc, char **argv) {
  c->m = argc > 0 ? atoi(argv[0]) : 100;
  size_t n = (size_t)c->m * c->m + c->m;
  c->x = (double *)malloc(sizeof(double) * n);
  c->y = (double *)malloc(sizeof(double) * c->m);
  rng_seed(4);
  for (size_t i = 0; i < n; i++) c->x[i] = rng_unif(-1, 1);
  snprintf(c->size, sizeof c->size, "m=%d", c->m);
}
static int prob_nin(const ctx_t *c) { return c->m * c->m + c->m; }
static double *prob_x(ctx_t *c) { return c->x; }
static const char *prob_size_str(const ctx_t *c) { return c->size; }
#include "scalar.h"
