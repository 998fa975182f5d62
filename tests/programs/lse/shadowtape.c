// The zeroed gradient buffer as the tape (modes/reverse/rev/shadowtape.rs):
// the caller zeroes g right before `__enzyme_autodiff`, so the forward
// sweep may keep exp(x[i] - m) in g[i] and the reverse read it back
// instead of computing it again. Checked against analytic values and
// central differences: logsumexp and softmax shapes; a zeroing shorter
// or longer than the gradient (per element fallback), n = 0 and n = 1,
// accumulation into a nonzero g (no memset: not kept), a memset with a
// write between it and the call, a second loop reading x after the exp
// loop (refused), and g aliasing x (refused at the call site).
#include "check.h"
#include <math.h>
#include <string.h>

typedef struct {
  int n;
} ctx_t;

static double lse(const double *x, const ctx_t *c) {
  double m = x[0];
  for (int i = 1; i < c->n; i++)
    if (x[i] > m) m = x[i];
  double s = 0;
  for (int i = 0; i < c->n; i++) s += exp(x[i] - m);
  return m + log(s);
}

// Softmax cross-entropy against class 0: -x[0] + lse(x).
static double xent(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += exp(x[i]);
  return log(s) - x[0];
}

// A second pass over x after the exp loop: its reverse adds into g before
// the exp loop's reverse, so nothing may be kept in g.
static double twopass(const double *x, const ctx_t *c) {
  double s = 0, q = 0;
  for (int i = 0; i < c->n; i++) s += exp(x[i]);
  for (int i = 0; i < c->n; i++) q += x[i] * x[i];
  return log(s) + 0.5 * q;
}

// The kept value is used by a product with x[i] (the rule reads it).
static double wsum(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * exp(0.5 * x[i]);
  return s;
}

__attribute__((noinline)) void grad_lse(const ctx_t *c, const double *x, double *g, int m) {
  memset(g, 0, sizeof(double) * m);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, c);
}
__attribute__((noinline)) void grad_xent(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)xent, enzyme_dup, x, g, enzyme_const, c);
}
__attribute__((noinline)) void grad_twopass(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)twopass, enzyme_dup, x, g, enzyme_const, c);
}
__attribute__((noinline)) void grad_wsum(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)wsum, enzyme_dup, x, g, enzyme_const, c);
}
// No zeroing: the gradient is added to what g holds.
__attribute__((noinline)) void grad_lse_acc(const ctx_t *c, const double *x, double *g) {
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, c);
}
// A write into g between the zeroing and the call.
__attribute__((noinline)) void grad_lse_poke(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  g[1] = 3.0;
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, c);
}
// g is x (the shadow aliases the primal): refused at the call site; the
// result is whatever the plain pair gives, only checked to run.
__attribute__((noinline)) void grad_lse_alias(const ctx_t *c, double *x) {
  memset(x, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, x, enzyme_const, c);
}

#define N 9
static void softmax(const double *x, int n, double *p) {
  double m = x[0], s = 0;
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  for (int i = 0; i < n; i++) p[i] = exp(x[i] - m) / s;
}

int main(void) {
  double x[2 * N], g[2 * N], p[2 * N];
  for (int i = 0; i < 2 * N; i++) x[i] = sin(1.7 * i) * 3.0;
  ctx_t c = {N};
  softmax(x, N, p);
  // Exactly covered, twice (the buffer is reused).
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
    grad_lse(&c, x, g, N);
    for (int i = 0; i < N; i++) {
      CHECK("lse", g[i], p[i], 1e-12);
      CHECK("lse fd", g[i], FD(x[i], lse(x, &c), 1e-6), 1e-6);
    }
    CHECK("lse: past the zeroing", g[N], 7.0, 0);
  }
  // The zeroing covers more than the loop: the tail stays zero.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_lse(&c, x, g, 2 * N);
  for (int i = 0; i < N; i++) CHECK("long zeroing", g[i], p[i], 1e-12);
  for (int i = N; i < 2 * N; i++) CHECK("long zeroing: tail", g[i], 0.0, 0);
  // The zeroing covers less: the rest is added to.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_lse(&c, x, g, N / 2);
  for (int i = 0; i < N / 2; i++) CHECK("short zeroing", g[i], p[i], 1e-12);
  for (int i = N / 2; i < N; i++) CHECK("short zeroing: added", g[i], 7.0 + p[i], 1e-12);
  // A zeroing shorter than one element.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_lse(&c, x, g, 0);
  for (int i = 0; i < N; i++) CHECK("no zeroing: added", g[i], 7.0 + p[i], 1e-12);
  // n = 1: d/dx0 = 1.
  c.n = 1;
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_lse(&c, x, g, 1);
  CHECK("n = 1", g[0], 1.0, 1e-12);
  CHECK("n = 1: past", g[1], 7.0, 0);
  c.n = N;
  // Softmax cross-entropy.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_xent(&c, x, g);
  {
    double s = 0;
    for (int i = 0; i < N; i++) s += exp(x[i]);
    for (int i = 0; i < N; i++) {
      CHECK("xent", g[i], exp(x[i]) / s - (i == 0), 1e-12);
      CHECK("xent fd", g[i], FD(x[i], xent(x, &c), 1e-6), 1e-6);
    }
  }
  // Two passes: refused, still right.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_twopass(&c, x, g);
  {
    double s = 0;
    for (int i = 0; i < N; i++) s += exp(x[i]);
    for (int i = 0; i < N; i++) {
      CHECK("twopass", g[i], exp(x[i]) / s + x[i], 1e-12);
      CHECK("twopass fd", g[i], FD(x[i], twopass(x, &c), 1e-6), 1e-5);
    }
  }
  // x[i] * exp(x[i] / 2).
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_wsum(&c, x, g);
  for (int i = 0; i < N; i++) {
    CHECK("wsum", g[i], exp(0.5 * x[i]) * (1 + 0.5 * x[i]), 1e-12);
    CHECK("wsum fd", g[i], FD(x[i], wsum(x, &c), 1e-6), 1e-5);
  }
  // Accumulating into a nonzero g.
  for (int i = 0; i < 2 * N; i++) g[i] = 2.0;
  grad_lse_acc(&c, x, g);
  for (int i = 0; i < N; i++) CHECK("accumulate", g[i], 2.0 + p[i], 1e-12);
  // A write between the zeroing and the call.
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_lse_poke(&c, x, g);
  for (int i = 0; i < N; i++) CHECK("poke", g[i], p[i] + (i == 1 ? 3.0 : 0.0), 1e-12);
  // n = 0: the gradient leaves the zeroed buffer alone.
  c.n = 0;
  for (int i = 0; i < 2 * N; i++) g[i] = 7.0;
  grad_lse(&c, x, g, 0);
  CHECK("n = 0: d/dx0", g[0], 8.0, 1e-12);
  CHECK("n = 0: past", g[1], 7.0, 0);
  c.n = N;
  // Aliasing: runs.
  {
    double y[N];
    for (int i = 0; i < N; i++) y[i] = x[i];
    grad_lse_alias(&c, y);
  }
  CHECK_DONE();
}
