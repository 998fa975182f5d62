// Zero fusion's run-time fallbacks (modes/reverse/zfuse.rs): the gradient
// is fused, but at this call the caller zeroes more than the loop writes,
// or the loop does not run at all; the fused gradient must then zero what
// the caller's memset would have zeroed and still add the gradient in.
#include "check.h"
#include <string.h>

typedef struct {
  int n, on;
} ctx_t;

static double sumsq(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i];
  return s;
}

static double gated(const double *x, const ctx_t *c) {
  double s = 0;
  if (c->on)
    for (int i = 0; i < c->n; i++) s += x[i] * x[i] * 0.5;
  return s;
}

// Zeroes m elements; the gradient covers c->n of them.
__attribute__((noinline)) void grad_sumsq(const ctx_t *c, const double *x, double *g, int m) {
  memset(g, 0, sizeof(double) * m);
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, g, enzyme_const, c);
}

__attribute__((noinline)) void grad_gated(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)gated, enzyme_dup, x, g, enzyme_const, c);
}

#define N 6
int main(void) {
  double x[2 * N], g[2 * N];
  for (int i = 0; i < 2 * N; i++) x[i] = 0.4 - 0.13 * i;
  ctx_t c = {N, 1};
  // Exactly covered.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_sumsq(&c, x, g, N);
  for (int i = 0; i < N; i++) CHECK("covered", g[i], 2 * x[i], 1e-12);
  CHECK("covered: past the zeroing", g[N], 7.0, 0);
  // Zeroing past what the gradient writes (partial coverage).
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_sumsq(&c, x, g, 2 * N);
  for (int i = 0; i < N; i++) {
    CHECK("partial", g[i], 2 * x[i], 1e-12);
    CHECK("partial fd", g[i], FD(x[i], sumsq(x, &c), 1e-6), 1e-6);
  }
  for (int i = N; i < 2 * N; i++) CHECK("partial: zeroed tail", g[i], 0.0, 0);
  // Zeroing less than the gradient writes: the rest is added to.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_sumsq(&c, x, g, N / 2);
  for (int i = 0; i < N / 2; i++) CHECK("short", g[i], 2 * x[i], 1e-12);
  for (int i = N / 2; i < N; i++) CHECK("short: added", g[i], 7.0 + 2 * x[i], 1e-12);
  // The loop is skipped (n = 0): the zeroing still happens.
  c.n = 0;
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_sumsq(&c, x, g, N);
  for (int i = 0; i < N; i++) CHECK("no iterations: zeroed", g[i], 0.0, 0);
  CHECK("no iterations: past the zeroing", g[N], 7.0, 0);
  c.n = N;
  // Behind a condition, off.
  c.on = 0;
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_gated(&c, x, g);
  for (int i = 0; i < N; i++) CHECK("skipped: zeroed", g[i], 0.0, 0);
  c.on = 1;
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_gated(&c, x, g);
  for (int i = 0; i < N; i++) {
    CHECK("gated", g[i], x[i], 1e-12);
    CHECK("gated fd", g[i], FD(x[i], gated(x, &c), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
