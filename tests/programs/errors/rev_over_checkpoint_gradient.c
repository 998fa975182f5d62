// EXPECT-ERROR: 'gradient' runs the gradient of a checkpointed loop or fixed point
// Reverse over reverse through __enzyme_checkpoint_for is not supported
// (forward over reverse is: tests/programs/higher/checkpoint_hvp.c): the
// gradient's reverse sweep is driven by the loop runtime through function
// pointers. The outer call must get this error (with its line), not a
// confusing one from inside the runtime or a wrong second derivative.
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

// The sum of the gradient's entries.
__attribute__((noinline)) static double gradient(double *u, double *p, int64_t n) {
  double gu[N] = {0}, gp[N] = {0};
  __enzyme_autodiff((void *)run, enzyme_dup, u, gu, enzyme_dup, p, gp, enzyme_const, n);
  return gu[0] + gu[1] + gu[2] + gp[0];
}

int main(void) {
  double u[N] = {0.4, 0.6, 0.2}, du[N] = {0}, p[N] = {0.9, 1.1, 0.7}, dp[N] = {0};
  __enzyme_autodiff((void *)gradient, enzyme_dup, u, du, enzyme_dup, p, dp, enzyme_const,
                    (int64_t)5);
  printf("%g\n", du[0]);
  return 0;
}
