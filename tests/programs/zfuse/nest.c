// Zero fusion in a 2-level loop nest (modes/reverse/zfuse.rs,
// cpp/zfuse.cc): f = ||A v||^2 with x = [A, v]. The reverse sweep writes
// each A-bar_ij once (the inner ranges tile A-bar with the outer loop) and
// adds into every v-bar_j in every outer iteration (the first outer
// iteration stores). The buffer holds 7.0 before each call, so a missing
// zeroing shows. Also: the caller zeroing more or less than the gradient
// covers, no iterations (n = 0), one row; and nests that must not be fused
// (a triangular nest whose inner range changes with the row, a gap in the
// inner range, a column-major walk, the shadow read inside the nest, a
// const argument into the shadow's memory); all are checked against
// analytic values and central differences. Indices are size_t, as in
// bench/problems/matvec.h: with int indices the reverse sweep's
// `zext(i32 add)` addresses are not affine to ScalarEvolution and the
// nest is left alone (nofire.c's matvec).
#include "check.h"
#include <string.h>

#define N 5
typedef struct {
  int n;
  const double *w;
} ctx_t;

// ||A v||^2, A n-by-n row-major then v.
static double matvec(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) y += x[(size_t)i * n + j] * x[(size_t)n * n + j];
    f += y * y;
  }
  return f;
}

// Lower-triangular: the inner loop's length depends on the row.
static double lower(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j <= i; j++) y += x[(size_t)i * n + j] * x[(size_t)n * n + j];
    f += y * y;
  }
  return f;
}

// The inner loop skips the last column: a gap in every row.
static double gap(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j + 1 < n; j++) y += x[(size_t)i * n + j] * x[(size_t)n * n + j];
    f += y * y;
  }
  return f;
}

// A^T v: the inner loop walks a column (stride n).
static double colmajor(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) y += x[(size_t)j * n + i] * x[(size_t)n * n + j];
    f += y * y;
  }
  return f;
}

// v scaled in place inside the nest: the reverse sweep reads v-bar.
static double inplace(double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) {
      x[(size_t)n * n + j] *= 1.5;
      y += x[(size_t)i * n + j] * x[(size_t)n * n + j];
    }
    f += y * y;
  }
  return f;
}

// Reads c->w, which the caller points into the shadow (all zero then).
static double aliased(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) y += x[(size_t)i * n + j] * (x[(size_t)n * n + j] + c->w[j]);
    f += y * y;
  }
  return f;
}

static double fx[N * N + N], g[2 * (N * N + N)];
static ctx_t C = {N, 0};
static void reset(void) {
  for (int i = 0; i < N * N + N; i++) fx[i] = 0.3 + 0.07 * i - 0.004 * i * i;
}
static void fill(void) {
  for (int i = 0; i < 2 * (N * N + N); i++) g[i] = 7.0;
}

#define GRAD(fn, len)                                                      \
  __attribute__((noinline)) void grad_##fn(double *x, double *d) {         \
    memset(d, 0, sizeof(double) * (len));                                  \
    __enzyme_autodiff((void *)fn, enzyme_dup, x, d, enzyme_const, &C);     \
  }
GRAD(matvec, C.n * C.n + C.n)
GRAD(lower, C.n * C.n + C.n)
GRAD(gap, C.n * C.n + C.n)
GRAD(colmajor, C.n * C.n + C.n)

// The caller zeroes m elements.
__attribute__((noinline)) void grad_matvec_m(double *x, double *d, int m) {
  memset(d, 0, sizeof(double) * m);
  __enzyme_autodiff((void *)matvec, enzyme_dup, x, d, enzyme_const, &C);
}

__attribute__((noinline)) void grad_inplace(double *x, double *d) {
  memset(d, 0, sizeof(double) * (C.n * C.n + C.n));
  __enzyme_autodiff((void *)inplace, enzyme_dup, x, d, enzyme_const, &C);
}

__attribute__((noinline)) void grad_aliased(double *x, double *d) {
  ctx_t c = {C.n, d};
  memset(d, 0, sizeof(double) * (C.n * C.n + C.n));
  __enzyme_autodiff((void *)aliased, enzyme_dup, x, d, enzyme_const, &c);
}

// Analytic gradient of matvec for size n into want[0 .. n*n+n).
static void matvec_want(int n, double *want) {
  for (int j = 0; j < n; j++) want[n * n + j] = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) y += fx[i * n + j] * fx[n * n + j];
    for (int j = 0; j < n; j++) {
      want[i * n + j] = 2 * y * fx[n * n + j];
      want[n * n + j] += 2 * y * fx[i * n + j];
    }
  }
}

static void check_fd(const char *name, double (*fn)(const double *, const ctx_t *), int len) {
  for (int i = 0; i < len; i++) CHECK(name, g[i], FD(fx[i], fn(fx, &C), 1e-6), 1e-6);
}

int main(void) {
  double want[N * N + N];
  int len = N * N + N;
  reset();
  // Fused: exactly covered.
  fill();
  grad_matvec(fx, g);
  matvec_want(N, want);
  for (int i = 0; i < len; i++) CHECK("matvec", g[i], want[i], 1e-12);
  CHECK("matvec: past the zeroing", g[len], 7.0, 0);
  check_fd("matvec fd", matvec, len);
  // The caller zeroes more than the gradient writes.
  fill();
  grad_matvec_m(fx, g, len + 3);
  for (int i = 0; i < len; i++) CHECK("longer zeroing", g[i], want[i], 1e-12);
  for (int i = len; i < len + 3; i++) CHECK("longer zeroing: tail", g[i], 0.0, 0);
  CHECK("longer zeroing: past", g[len + 3], 7.0, 0);
  // ... and less: the rest is added to.
  fill();
  grad_matvec_m(fx, g, N * N);
  for (int i = 0; i < N * N; i++) CHECK("shorter zeroing", g[i], want[i], 1e-12);
  for (int i = N * N; i < len; i++) CHECK("shorter zeroing: added", g[i], 7.0 + want[i], 1e-12);
  // One row and column.
  C.n = 1;
  fill();
  grad_matvec(fx, g);
  matvec_want(1, want);
  for (int i = 0; i < 2; i++) CHECK("n=1", g[i], want[i], 1e-12);
  CHECK("n=1: past", g[2], 7.0, 0);
  check_fd("n=1 fd", matvec, 2);
  // No iterations: nothing is zeroed by the caller's length 0 either.
  C.n = 0;
  fill();
  grad_matvec(fx, g);
  CHECK("n=0: untouched", g[0], 7.0, 0);
  // ... with a zeroing of 4 elements and no loop: still zeroed.
  fill();
  grad_matvec_m(fx, g, 4);
  for (int i = 0; i < 4; i++) CHECK("n=0: zeroed", g[i], 0.0, 0);
  CHECK("n=0: past", g[4], 7.0, 0);
  C.n = N;
  // Not fused (or fused only where proven): every gradient still exact.
  fill();
  grad_lower(fx, g);
  check_fd("lower fd", lower, len);
  CHECK("lower: past", g[len], 7.0, 0);
  fill();
  grad_gap(fx, g);
  check_fd("gap fd", gap, len);
  for (int i = 0; i < N; i++) CHECK("gap: last column zero", g[i * N + N - 1], 0.0, 0);
  fill();
  grad_colmajor(fx, g);
  check_fd("colmajor fd", colmajor, len);
  fill();
  grad_aliased(fx, g);
  {
    static const double zero[N] = {0};
    C.w = zero;
    check_fd("aliased fd", aliased, len);
    C.w = 0;
  }
  // In place: the gradient w.r.t. the input values of x.
  {
    double x1[N * N + N], x2[N * N + N];
    for (int i = 0; i < len; i++) x1[i] = fx[i];
    fill();
    grad_inplace(x1, g);
    for (int i = 0; i < len; i++) {
      double h = 1e-6, s = fx[i];
      for (int k = 0; k < len; k++) x2[k] = fx[k];
      x2[i] = s + h;
      double fp = inplace(x2, &C);
      for (int k = 0; k < len; k++) x2[k] = fx[k];
      x2[i] = s - h;
      double fm = inplace(x2, &C);
      CHECK("inplace fd", g[i], (fp - fm) / (2 * h), 1e-5);
    }
  }
  CHECK_DONE();
}
