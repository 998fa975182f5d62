// EXPECT-ERROR: 'gradient' runs the gradient of a checkpointed loop or fixed point
// Forward over reverse through __enzyme_checkpoint_for is not supported yet:
// the gradient's reverse sweep is driven by the loop runtime through
// function pointers. The outer call must get this error (with its line),
// not a confusing one from inside the runtime or a wrong product.
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>

#define N 3

__attribute__((noinline)) static void advance(int64_t i, double *u, const double *p) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + 0.1 * (p[k] * cos(u[(k + 2) % N]) - u[k] * u[(k + 1) % N]) + 0.01 * (double)i;
  for (int k = 0; k < N; k++)
    u[k] = t[k];
}

static double run(double *u, double *p, int64_t n) {
  __enzyme_checkpoint_for((void *)advance, 0, n, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u, p);
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k];
  return s;
}

__attribute__((noinline)) static void gradient(double *u, double *gu, double *p, double *gp,
                                               int64_t n) {
  __enzyme_autodiff((void *)run, enzyme_dup, u, gu, enzyme_dup, p, gp, enzyme_const, n);
}

int main(void) {
  double u[N] = {0.4, 0.6, 0.2}, du[N] = {1, 0, 0}, p[N] = {0.9, 1.1, 0.7}, dp[N] = {0};
  double g[2 * N] = {0}, hv[2 * N] = {0};
  __enzyme_fwddiff((void *)gradient, enzyme_dup, u, du, enzyme_dup, g, hv, enzyme_dup, p, dp,
                   enzyme_dup, g + N, hv + N, enzyme_const, (int64_t)5);
  printf("%g\n", hv[0]);
  return 0;
}
