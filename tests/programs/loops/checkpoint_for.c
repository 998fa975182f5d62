// A time-stepping loop through __enzyme_checkpoint_for: its gradient (state
// and parameters) must equal the plain loop's and central finite
// differences, with the default scheme, a periodic one, store-all and
// Revolve with 3, 1 and 2 snapshots.
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>
#include <string.h>

#define N 4

__attribute__((noinline)) static void step(int64_t i, double *u, const double *p) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + 0.05 * (p[0] * sin(u[(k + 1) % N]) - p[1] * u[k] * u[k]) +
           0.001 * (double)i * p[0];
  for (int k = 0; k < N; k++)
    u[k] = t[k];
}

static double loss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k] * (k + 1);
  return s;
}

static double plain(double *u, const double *p, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    step(i, u, p);
  return loss(u);
}

static double ckpt(double *u, const double *p, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u, p);
  return loss(u);
}

static double ckpt_scheme(double *u, const double *p, int64_t n,
                          const EnzymeCheckpointScheme *s, EnzymeCkptConfig *c) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, s, c,
                          enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u, p);
  return loss(u);
}

static void init(double *u, double *p) {
  for (int k = 0; k < N; k++)
    u[k] = 0.3 + 0.1 * k;
  p[0] = 0.7;
  p[1] = 0.4;
}

static double primal(double *p, int64_t n) {
  double u[N], q[2];
  init(u, q);
  return plain(u, p, n);
}

int main(void) {
  int64_t sizes[] = {0, 1, 2, 7, 50, 101};
  for (int si = 0; si < 6; si++) {
    int64_t n = sizes[si];
    double u[N], p[2], du0[N] = {0}, dp0[2] = {0};
    init(u, p);
    __enzyme_autodiff((void *)plain, enzyme_dup, u, du0, enzyme_dup, p, dp0, enzyme_const, n);
    for (int variant = 0; variant < 7; variant++) {
      double du[N] = {0}, dp[2] = {0}, pp[2];
      EnzymeCkptStats st;
      memset(&st, 0, sizeof st);
      EnzymeCkptConfig cfg = {variant == 2 || variant == 4 ? 3 : (variant == 6 ? 2 : (variant == 5 ? 1 : 0)), 0, 0, 0, &st};
      init(u, pp);
      if (variant == 0)
        __enzyme_autodiff((void *)ckpt, enzyme_dup, u, du, enzyme_dup, pp, dp, enzyme_const, n);
      else
        __enzyme_autodiff((void *)ckpt_scheme, enzyme_dup, u, du, enzyme_dup, pp, dp,
                          enzyme_const, n, enzyme_const,
                          variant == 3 ? &EnzymeCkptStoreAll
                                       : (variant >= 4 ? &EnzymeCkptRevolve : &EnzymeCkptPeriodic),
                          enzyme_const, &cfg);
      char name[64];
      for (int k = 0; k < N; k++) {
        snprintf(name, sizeof name, "n=%ld v=%d du[%d]", (long)n, variant, k);
        CHECK(name, du[k], du0[k], 1e-10);
      }
      for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "n=%ld v=%d dp[%d]", (long)n, variant, k);
        CHECK(name, dp[k], dp0[k], 1e-10);
      }
      // The primal state after the gradient is the loop's final state.
      double uf[N], pf[2];
      init(uf, pf);
      plain(uf, pf, n);
      CHECK("final state", u[0], uf[0], 1e-14);
      if (variant > 0 && n > 1)
        CHECK("every step differentiated once", (double)st.taped_steps, (double)n, 0);
    }
    double pr[2] = {0.7, 0.4};
    CHECK("dp0 fd", dp0[0], FD(pr[0], primal(pr, n), 1e-6), 1e-6);
    CHECK("dp1 fd", dp0[1], FD(pr[1], primal(pr, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
