// The caller's zeroing of the shadow fused into the gradient
// (modes/reverse/zfuse.rs): `memset(g, 0, len)` right before
// `__enzyme_autodiff`, the gradient writes every element of g once in one
// loop. The results must be the gradient itself (not added to what g held
// before the memset), at every call, against analytic values and central
// differences.
#include "check.h"
#include <string.h>

typedef struct {
  int n;
  double *x;
} ctx_t;

static double sumsq(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i];
  return s;
}

// x = [a, b]: two accumulations per iteration, into adjacent halves.
static double dot(const double *x, const ctx_t *c) {
  const double *a = x, *b = x + c->n;
  double s = 0;
  for (int i = 0; i < c->n; i++) s += a[i] * b[i];
  return s;
}

static double cubes(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i] * x[i] + sin(x[i]);
  return s;
}

__attribute__((noinline)) void grad_sumsq(const ctx_t *c, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)sumsq, enzyme_dup, c->x, g, enzyme_const, c);
}

__attribute__((noinline)) void grad_dot(const ctx_t *c, double *g) {
  int n = 2 * c->n;
  memset(g, 0, sizeof(double) * n);
  __enzyme_autodiff((void *)dot, enzyme_dup, c->x, g, enzyme_const, c);
}

__attribute__((noinline)) void grad_cubes(const ctx_t *c, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)cubes, enzyme_dup, c->x, g, enzyme_const, c);
}

#define N 7
int main(void) {
  double x[2 * N], g[2 * N];
  for (int i = 0; i < 2 * N; i++) x[i] = 0.3 + 0.17 * i - 0.02 * i * i;
  ctx_t c = {N, x};
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 2 * N; i++) g[i] = 100.0 + i; // garbage before the memset
    grad_sumsq(&c, g);
    for (int i = 0; i < N; i++) {
      CHECK("sumsq", g[i], 2 * x[i], 1e-12);
      CHECK("sumsq fd", g[i], FD(x[i], sumsq(x, &c), 1e-6), 1e-6);
    }
    CHECK("sumsq untouched past n", g[N], 100.0 + N, 0);
    for (int i = 0; i < 2 * N; i++) g[i] = -3.0;
    grad_dot(&c, g);
    for (int i = 0; i < N; i++) {
      CHECK("dot a", g[i], x[N + i], 1e-12);
      CHECK("dot b", g[N + i], x[i], 1e-12);
      CHECK("dot a fd", g[i], FD(x[i], dot(x, &c), 1e-6), 1e-6);
      CHECK("dot b fd", g[N + i], FD(x[N + i], dot(x, &c), 1e-6), 1e-6);
    }
    for (int i = 0; i < 2 * N; i++) g[i] = 1e9;
    grad_cubes(&c, g);
    for (int i = 0; i < N; i++) {
      CHECK("cubes", g[i], 3 * x[i] * x[i] + cos(x[i]), 1e-12);
      CHECK("cubes fd", g[i], FD(x[i], cubes(x, &c), 1e-6), 1e-6);
    }
  }
  // n = 0: nothing to zero, nothing written.
  ctx_t e = {0, x};
  g[0] = 5.0;
  grad_sumsq(&e, g);
  CHECK("empty", g[0], 5.0, 0);
  CHECK_DONE();
}
