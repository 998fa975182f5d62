// A while loop through __enzyme_checkpoint_while (the number of steps is
// only known at its end): its gradient must equal the plain loop's, with
// the default scheme, store-all and a periodic scheme of 3-step segments.
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>
#include <string.h>

#define N 3

__attribute__((noinline)) static int wstep(int64_t i, double *u, const double *p,
                                           const double *limit) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + 0.02 * (1.0 + p[0] * cos(u[(k + 2) % N]) + 0.01 * (double)i);
  for (int k = 0; k < N; k++)
    u[k] = t[k];
  return u[0] < *limit;
}

static double loss(const double *u) { return u[0] * u[1] + u[2] * u[2]; }

static double plain(double *u, const double *p, const double *limit) {
  int64_t i = 0;
  while (wstep(i++, u, p, limit))
    ;
  return loss(u);
}

static double ckpt(double *u, const double *p, const double *limit,
                   const EnzymeCheckpointScheme *s, EnzymeCkptConfig *c) {
  if (s)
    __enzyme_checkpoint_while((void *)wstep, enzyme_scheme, s, c, enzyme_checkpoint_region, u,
                              (int64_t)sizeof(double) * N, u, p, limit);
  else
    __enzyme_checkpoint_while((void *)wstep, enzyme_checkpoint_region, u,
                              (int64_t)sizeof(double) * N, u, p, limit);
  return loss(u);
}

static void init(double *u) {
  for (int k = 0; k < N; k++)
    u[k] = 0.1 * (k + 1);
}

int main(void) {
  double limits[] = {0.0, 0.12, 0.5, 1.3};
  for (int li = 0; li < 4; li++) {
    double limit = limits[li];
    double u[N], du0[N] = {0}, p[1] = {0.8}, dp0[1] = {0};
    init(u);
    __enzyme_autodiff((void *)plain, enzyme_dup, u, du0, enzyme_dup, p, dp0, enzyme_const, &limit);
    for (int v = 0; v < 3; v++) {
      double du[N] = {0}, dp[1] = {0};
      EnzymeCkptStats st;
      memset(&st, 0, sizeof st);
      EnzymeCkptConfig cfg = {v == 2 ? 3 : 0, 0, 0, 0, &st};
      const EnzymeCheckpointScheme *s =
          v == 0 ? 0 : (v == 1 ? &EnzymeCkptStoreAll : &EnzymeCkptPeriodic);
      init(u);
      __enzyme_autodiff((void *)ckpt, enzyme_dup, u, du, enzyme_dup, p, dp, enzyme_const, &limit,
                        enzyme_const, s, enzyme_const, &cfg);
      char name[64];
      for (int k = 0; k < N; k++) {
        snprintf(name, sizeof name, "limit=%g v=%d du[%d]", limit, v, k);
        CHECK(name, du[k], du0[k], 1e-10);
      }
      snprintf(name, sizeof name, "limit=%g v=%d dp", limit, v);
      CHECK(name, dp[0], dp0[0], 1e-10);
    }
    // Finite differences in p (the step count does not change near p).
    double pp = p[0], uu[N];
    double fd = FD(pp, (init(uu), plain(uu, &pp, &limit)), 1e-7);
    CHECK("dp fd", dp0[0], fd, 1e-5);
  }
  CHECK_DONE();
}
