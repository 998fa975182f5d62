// Reverse over forward through a checkpointed loop: the gradient of a
// directional derivative (a Hessian-vector product) whose forward-mode
// derivative runs __enzyme_checkpoint_for (forward mode sees the plain
// loop). It must equal the same through the plain loop, and central
// differences of the directional derivative.
// LEVELS: O0 O1 O2 O3
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>

#define N 4

__attribute__((noinline)) static void step(int64_t i, double *u, const double *c) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + 0.1 * c[k] * u[(k + 1) % N] * u[k] + 0.02 * cos(u[k] - 0.1 * (double)i);
  for (int k = 0; k < N; k++)
    u[k] = t[k];
}

static double loss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k] * u[k];
  return s;
}

static double plain(double *u, const double *c, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    step(i, u, c);
  return loss(u);
}

static double ckpt(double *u, const double *c, int64_t n, EnzymeCkptConfig *cfg) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, &EnzymeCkptRevolve, cfg,
                          enzyme_checkpoint_region, u, (int64_t)(N * sizeof(double)), u, c);
  return loss(u);
}

static const double cs[N] = {0.5, -0.3, 0.8, 0.2};

// The derivative of the loss along v, from a copy of x.
__attribute__((noinline)) static double jvp(const double *x, const double *v, int64_t n,
                                            EnzymeCkptConfig *cfg) {
  double u[N], du[N];
  for (int k = 0; k < N; k++) {
    u[k] = x[k];
    du[k] = v[k];
  }
  if (cfg)
    return __enzyme_fwddiff((void *)ckpt, enzyme_dup, u, du, enzyme_const, cs, enzyme_const, n,
                            enzyme_const, cfg);
  return __enzyme_fwddiff((void *)plain, enzyme_dup, u, du, enzyme_const, cs, enzyme_const, n);
}

int main(void) {
  double x[N] = {0.5, 0.7, 0.9, 1.1}, v[N] = {1, -1, 0.5, 2};
  int64_t sizes[] = {0, 1, 7, 12};
  for (int s = 0; s < 4; s++) {
    int64_t n = sizes[s];
    EnzymeCkptConfig cfg = {2, 0, NULL, 0, NULL};
    double hp[N] = {0}, hc[N] = {0};
    __enzyme_autodiff((void *)jvp, enzyme_dup, x, hp, enzyme_const, v, enzyme_const, n,
                      enzyme_const, (EnzymeCkptConfig *)NULL);
    __enzyme_autodiff((void *)jvp, enzyme_dup, x, hc, enzyme_const, v, enzyme_const, n,
                      enzyme_const, &cfg);
    char name[64];
    for (int k = 0; k < N; k++) {
      snprintf(name, sizeof name, "n=%ld Hv[%d]", (long)n, k);
      CHECK(name, hc[k], hp[k], 1e-10);
      snprintf(name, sizeof name, "n=%ld Hv[%d] fd", (long)n, k);
      CHECK(name, hc[k], FD(x[k], jvp(x, v, n, NULL), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
