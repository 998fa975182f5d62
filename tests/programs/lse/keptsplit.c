// Kept values with the range test made once per loop (zfuse's
// split_kept_checks), the caller's memset folded into the forward sweep
// (zfuse's fused_kept_copy) and reassociable loop-invariant adjoint sums:
// logsumexp in float (4-byte elements) and double at a size where the
// reverse loop vectorizes, zeroings exact, longer, shorter, of a byte
// count that is no multiple of the element, and empty; a scalar's
// adjoint summed over a loop. Against analytic values and central
// differences.
#include "check.h"
#include <math.h>
#include <string.h>

typedef struct {
  int n;
} ctx_t;

static float lsef(const float *x, const ctx_t *c) {
  float m = x[0];
  for (int i = 1; i < c->n; i++)
    if (x[i] > m) m = x[i];
  float s = 0;
  for (int i = 0; i < c->n; i++) s += expf(x[i] - m);
  return m + logf(s);
}

static double lse(const double *x, const ctx_t *c) {
  double m = x[0];
  for (int i = 1; i < c->n; i++)
    if (x[i] > m) m = x[i];
  double s = 0;
  for (int i = 0; i < c->n; i++) s += exp(x[i] - m);
  return m + log(s);
}

static double scaled(const double *x, double a, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += a * x[i] * x[i];
  return s;
}

__attribute__((noinline)) void grad_lsef(const ctx_t *c, const float *x, float *g, size_t bytes) {
  memset(g, 0, bytes);
  __enzyme_autodiff((void *)lsef, enzyme_dup, x, g, enzyme_const, c);
}
__attribute__((noinline)) void grad_lse(const ctx_t *c, const double *x, double *g, size_t bytes) {
  memset(g, 0, bytes);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, c);
}
__attribute__((noinline)) double grad_scaled(const ctx_t *c, const double *x, double *g, double a) {
  return __enzyme_autodiff((void *)scaled, enzyme_dup, x, g, enzyme_out, a, enzyme_const, c);
}

#define N 1003
static double xd[2 * N], gd[2 * N], pd[N];
static float xf[2 * N], gf[2 * N], pf[N];

int main(void) {
  for (int i = 0; i < 2 * N; i++) {
    xd[i] = sin(1.3 * i) * 4.0;
    xf[i] = (float)xd[i];
  }
  ctx_t c = {N};
  {
    double m = xd[0], s = 0;
    for (int i = 1; i < N; i++) m = xd[i] > m ? xd[i] : m;
    for (int i = 0; i < N; i++) s += exp(xd[i] - m);
    for (int i = 0; i < N; i++) pd[i] = exp(xd[i] - m) / s;
    for (int i = 0; i < N; i++) pf[i] = (float)pd[i];
  }
  // Byte counts: exact, longer, shorter, not a multiple of the element.
  size_t bd[] = {8 * N, 16 * N, 8 * (N / 2), 8 * N - 3, 8 * N + 5, 0};
  for (unsigned k = 0; k < sizeof bd / sizeof bd[0]; k++) {
    // What the buffer holds before the gradient is added: 7.0 with the
    // caller's zeroing applied (a partly zeroed element keeps its bits).
    static double based[2 * N];
    for (int i = 0; i < 2 * N; i++) gd[i] = based[i] = 7.0;
    memset(based, 0, bd[k]);
    grad_lse(&c, xd, gd, bd[k]);
    for (int i = 0; i < N; i++) CHECK("double lse", gd[i], based[i] + pd[i], 1e-12);
    for (int i = N; i < 2 * N; i++) CHECK("double lse: past", gd[i], based[i], 0);
  }
  size_t bf[] = {4 * N, 8 * N, 4 * (N / 3), 4 * N - 1, 4 * N + 2, 0};
  for (unsigned k = 0; k < sizeof bf / sizeof bf[0]; k++) {
    static float basef[2 * N];
    for (int i = 0; i < 2 * N; i++) gf[i] = basef[i] = 7.0f;
    memset(basef, 0, bf[k]);
    grad_lsef(&c, xf, gf, bf[k]);
    for (int i = 0; i < N; i++) CHECK("float lse", gf[i], basef[i] + pf[i], 1e-5);
    for (int i = N; i < 2 * N; i++) CHECK("float lse: past", gf[i], basef[i], 0);
  }
  for (int i = 0; i < 5; i++) {
    for (int j = 0; j < N; j++) gd[j] = 0;
    double h = 1e-6, x0 = xd[i * 97];
    grad_lse(&c, xd, gd, 8 * N);
    xd[i * 97] = x0 + h;
    double fp = lse(xd, &c);
    xd[i * 97] = x0 - h;
    double fm = lse(xd, &c);
    xd[i * 97] = x0;
    CHECK("lse fd", gd[i * 97], (fp - fm) / (2 * h), 1e-6);
  }
  // n = 0 and n = 1.
  c.n = 0;
  for (int i = 0; i < 2 * N; i++) gd[i] = 7.0;
  grad_lse(&c, xd, gd, 8 * N);
  CHECK("n = 0: d/dx0", gd[0], 1.0, 1e-12);
  CHECK("n = 0: zeroed", gd[1], 0.0, 0);
  c.n = 1;
  for (int i = 0; i < 2 * N; i++) gd[i] = 7.0;
  grad_lse(&c, xd, gd, 8);
  CHECK("n = 1", gd[0], 1.0, 1e-12);
  CHECK("n = 1: past", gd[1], 7.0, 0);
  c.n = N;
  // sum a x_i^2: d/da = sum x_i^2 (one term per iteration), d/dx_i = 2 a x_i.
  {
    for (int i = 0; i < N; i++) gd[i] = 0;
    double a = 1.5, q = 0;
    double da = grad_scaled(&c, xd, gd, a);
    for (int i = 0; i < N; i++) q += xd[i] * xd[i];
    CHECK("d/da", da, q, 1e-10 * q);
    for (int i = 0; i < N; i++) CHECK("d/dx", gd[i], 2 * a * xd[i], 1e-12);
  }
  CHECK_DONE();
}
