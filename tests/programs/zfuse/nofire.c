// Where zero fusion (modes/reverse/zfuse.rs) must leave the caller's
// zeroing alone: the gradient reads the shadow before writing it, two
// shadows share memory, one element is accumulated into twice, the shadow
// is written between the memset and the call or escapes into an argument.
// (The nested loops of a matrix-vector product, here since before zero
// fusion covered nests, are now fused: nest.c.) Every gradient must match
// analytic values and central differences.
#include "check.h"
#include <string.h>

#define N 5
typedef struct {
  int n;
  double *keep;
} ctx_t;

// In-place scaling: the reverse sweep reads dx[i] (dx[i] *= 2).
static double scaled(double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) {
    x[i] = 2 * x[i];
    s += x[i] * x[i];
  }
  return s;
}

// Element i is accumulated into from iterations i and n-1-i.
static double mirrored(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[c->n - 1 - i];
  return s;
}

// Two loops accumulate into the same elements.
static double twoloops(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i];
  for (int i = 0; i < c->n; i++) s += 3 * x[i];
  return s;
}

static double pair(const double *x, const double *y, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * y[i];
  return s;
}

// ||A v||^2, A n-by-n then v (nested loops).
static double matvec(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) y += x[i * n + j] * x[n * n + j];
    f += y * y;
  }
  return f;
}

static double sumsq(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i];
  return s;
}

static double fx[N * N + N], x0[N * N + N];
static ctx_t C = {N, 0};
static void reset(void) {
  for (int i = 0; i < N * N + N; i++) fx[i] = x0[i] = 0.2 + 0.11 * i - 0.01 * i * i;
}

// Each gradient zeroes its shadow right before the call, as fire.c does.
#define GRAD(fn, len)                                                                  \
  __attribute__((noinline)) void grad_##fn(double *x, double *g) {                     \
    memset(g, 0, sizeof(double) * (len));                                              \
    __enzyme_autodiff((void *)fn, enzyme_dup, x, g, enzyme_const, &C);                 \
  }
GRAD(scaled, C.n)
GRAD(mirrored, C.n)
GRAD(twoloops, C.n)
GRAD(matvec, C.n * C.n + C.n)

__attribute__((noinline)) void grad_pair(double *x, double *g) {
  memset(g, 0, sizeof(double) * C.n);
  __enzyme_autodiff((void *)pair, enzyme_dup, x, g, enzyme_dup, x, g, enzyme_const, &C);
}

__attribute__((noinline)) void grad_written(double *x, double *g) {
  memset(g, 0, sizeof(double) * C.n);
  g[1] = 10.0;
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, g, enzyme_const, &C);
}

int main(void) {
  double g[N * N + N], h[N * N + N];
  // Shadow read before written.
  reset();
  grad_scaled(fx, g);
  for (int i = 0; i < N; i++) CHECK("scaled", g[i], 8 * x0[i], 1e-12);
  // Twice into one element, in one loop and in two loops.
  reset();
  grad_mirrored(fx, g);
  for (int i = 0; i < N; i++) {
    CHECK("mirrored", g[i], 2 * x0[N - 1 - i], 1e-12);
    CHECK("mirrored fd", g[i], FD(fx[i], mirrored(fx, &C), 1e-6), 1e-6);
  }
  grad_twoloops(fx, g);
  for (int i = 0; i < N; i++) {
    CHECK("twoloops", g[i], 2 * x0[i] + 3, 1e-12);
    CHECK("twoloops fd", g[i], FD(fx[i], twoloops(fx, &C), 1e-6), 1e-6);
  }
  // Two shadows sharing memory: the adjoints of x and y add up.
  grad_pair(fx, g);
  for (int i = 0; i < N; i++) CHECK("shared shadows", g[i], 2 * x0[i], 1e-12);
  // Written between the memset and the call.
  grad_written(fx, g);
  for (int i = 0; i < N; i++) CHECK("written between", g[i], 2 * x0[i] + (i == 1 ? 10 : 0), 1e-12);
  // A local shadow that escapes into the constant argument.
  ctx_t k = {N, h};
  memset(h, 0, sizeof(double) * N);
  __enzyme_autodiff((void *)sumsq, enzyme_dup, fx, h, enzyme_const, &k);
  for (int i = 0; i < N; i++) CHECK("escaped", h[i], 2 * x0[i], 1e-12);
  // Nested loops.
  grad_matvec(fx, g);
  for (int i = 0; i < N * N + N; i++)
    CHECK("matvec fd", g[i], FD(fx[i], matvec(fx, &C), 1e-6), 1e-6);
  CHECK_DONE();
}
