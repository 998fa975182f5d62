// Forward over reverse through a checkpointed loop: the tangent of a
// gradient that runs __enzyme_checkpoint_for / __enzyme_checkpoint_while
// (Hessian-vector products, and the tangent of the derivative of an active
// float argument). For every scheme, snapshot count and number of steps it
// must equal forward over reverse of the plain loop, and central
// differences of the plain loop's gradient; the state after it (and its
// tangent) must be the plain loop's, every step differentiated once. Also
// two directions at once (enzyme_width 2).
// LEVELS: O0 O1 O2 O3
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>
#include <string.h>

#define N 3

// Read by every step, written by none: a constant of the loop.
static double decay = 0.9;

__attribute__((noinline)) static void step(int64_t i, double *u, const double *p, double a) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = decay * u[k] + 0.1 * p[k] * sin(a * u[(k + 1) % N]) + 0.02 * u[k] * u[(k + 2) % N] +
           0.01 * (double)(i % 3);
  for (int k = 0; k < N; k++)
    u[k] = t[k];
}

static double loss(const double *u, const double *p) {
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k] * (1 + p[k]);
  return s;
}

static double plain(double *u, double *p, double a, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    step(i, u, p, a);
  return loss(u, p);
}

static double ckpt(double *u, double *p, double a, int64_t n,
                   const EnzymeCheckpointScheme *s, EnzymeCkptConfig *c) {
  if (s)
    __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, s, c, enzyme_checkpoint_region, u,
                            (int64_t)(N * sizeof(double)), u, p, a);
  else
    __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u,
                            (int64_t)(N * sizeof(double)), u, p, a);
  return loss(u, p);
}

// The while loop: steps while the first entry stays below `limit`.
__attribute__((noinline)) static int wstep(int64_t i, double *u, const double *p, double a,
                                           const double *limit) {
  step(i, u, p, a);
  return u[0] < *limit && i < 40;
}

static double wplain(double *u, double *p, double a, const double *limit) {
  int64_t i = 0;
  while (wstep(i++, u, p, a, limit))
    ;
  return loss(u, p);
}

static double wckpt(double *u, double *p, double a, const double *limit,
                    const EnzymeCheckpointScheme *s, EnzymeCkptConfig *c) {
  __enzyme_checkpoint_while((void *)wstep, enzyme_scheme, s, c, enzyme_checkpoint_region, u,
                            (int64_t)(N * sizeof(double)), u, p, a, limit);
  return loss(u, p);
}

// gu += d/du, gp += d/dp; returns d/da. `limit` selects the while loop,
// `s` the checkpointed one (NULL with c NULL: the plain loop).
__attribute__((noinline)) static double grad(double *u, double *gu, double *p, double *gp,
                                             double a, int64_t n, const double *limit,
                                             const EnzymeCheckpointScheme *s,
                                             EnzymeCkptConfig *c) {
  if (limit && c)
    return __enzyme_autodiff((void *)wckpt, enzyme_dup, u, gu, enzyme_dup, p, gp, a,
                             enzyme_const, limit, enzyme_const, s, enzyme_const, c);
  if (limit)
    return __enzyme_autodiff((void *)wplain, enzyme_dup, u, gu, enzyme_dup, p, gp, a,
                             enzyme_const, limit);
  if (c)
    return __enzyme_autodiff((void *)ckpt, enzyme_dup, u, gu, enzyme_dup, p, gp, a,
                             enzyme_const, n, enzyme_const, s, enzyme_const, c);
  return __enzyme_autodiff((void *)plain, enzyme_dup, u, gu, enzyme_dup, p, gp, a, enzyme_const,
                           n);
}

static const double u0[N] = {0.4, 0.7, -0.3}, p0[N] = {0.9, 1.2, 0.6}, a0 = 1.3;
static const double vu[N] = {1.0, -0.5, 0.25}, vp[N] = {0.3, 0.2, -0.4}, va = 0.7;

typedef struct {
  double g[2 * N + 1], hv[2 * N + 1]; // d/du, d/dp, d/da and their tangents
  double u[N], du[N];                 // the state after, and its tangent
  EnzymeCkptStats st;
} Result;

static Result hvp(int64_t n, const double *limit, const EnzymeCheckpointScheme *s, int64_t snaps,
                  int ckpt_on) {
  Result r;
  memset(&r, 0, sizeof r);
  double p[N], dp[N];
  EnzymeCkptConfig c = {snaps, 0, NULL, 0, &r.st};
  for (int k = 0; k < N; k++) {
    r.u[k] = u0[k];
    r.du[k] = vu[k];
    p[k] = p0[k];
    dp[k] = vp[k];
  }
  typedef struct { double v, dv; } dd;
  extern dd __enzyme_fwddiff_grad(void *, ...);
  dd da = __enzyme_fwddiff_grad((void *)grad, enzyme_dup, r.u, r.du, enzyme_dup, r.g, r.hv,
                                enzyme_dup, p, dp, enzyme_dup, r.g + N, r.hv + N, a0, va,
                                enzyme_const, n, enzyme_const, limit, enzyme_const, s,
                                enzyme_const, ckpt_on ? &c : NULL);
  r.g[2 * N] = da.v;
  r.hv[2 * N] = da.dv;
  return r;
}

// Central differences of the plain gradient along (vu, vp, va).
static void fd(int64_t n, const double *limit, double *out) {
  const double h = 1e-6;
  double g[2][2 * N + 1];
  for (int sgn = 0; sgn < 2; sgn++) {
    double u[N], p[N], e = sgn ? -h : h;
    for (int k = 0; k < N; k++) {
      u[k] = u0[k] + e * vu[k];
      p[k] = p0[k] + e * vp[k];
    }
    memset(g[sgn], 0, sizeof g[sgn]);
    g[sgn][2 * N] = grad(u, g[sgn], p, g[sgn] + N, a0 + e * va, n, limit, NULL, NULL);
  }
  for (int k = 0; k < 2 * N + 1; k++)
    out[k] = (g[0][k] - g[1][k]) / (2 * h);
}

static void compare(const char *what, int64_t n, const Result *r, const Result *ref,
                    const double *fdv, int64_t steps) {
  char name[96];
  for (int k = 0; k < 2 * N + 1; k++) {
    snprintf(name, sizeof name, "%s n=%ld g[%d]", what, (long)n, k);
    CHECK(name, r->g[k], ref->g[k], 1e-11);
    snprintf(name, sizeof name, "%s n=%ld Hv[%d]", what, (long)n, k);
    CHECK(name, r->hv[k], ref->hv[k], 1e-10);
    snprintf(name, sizeof name, "%s n=%ld Hv[%d] fd", what, (long)n, k);
    CHECK(name, r->hv[k], fdv[k], 1e-5);
  }
  for (int k = 0; k < N; k++) {
    snprintf(name, sizeof name, "%s n=%ld state after [%d]", what, (long)n, k);
    CHECK(name, r->u[k], ref->u[k], 1e-14);
    snprintf(name, sizeof name, "%s n=%ld tangent after [%d]", what, (long)n, k);
    CHECK(name, r->du[k], ref->du[k], 1e-12);
  }
  snprintf(name, sizeof name, "%s n=%ld steps differentiated", what, (long)n);
  CHECK(name, (double)r->st.taped_steps, (double)steps, 0);
}

int main(void) {
  const EnzymeCheckpointScheme *schemes[] = {NULL, &EnzymeCkptPeriodic, &EnzymeCkptStoreAll,
                                             &EnzymeCkptRevolve, &EnzymeCkptRevolve,
                                             &EnzymeCkptRevolve};
  const char *names[] = {"default", "periodic", "store-all", "revolve1", "revolve2", "revolve3"};
  int64_t snaps[] = {0, 3, 0, 1, 2, 3};
  int64_t sizes[] = {0, 1, 2, 7, 20};
  for (int si = 0; si < 5; si++) {
    int64_t n = sizes[si];
    Result ref = hvp(n, NULL, NULL, 0, 0);
    double fdv[2 * N + 1];
    fd(n, NULL, fdv);
    for (int s = 0; s < 6; s++) {
      Result r = hvp(n, NULL, schemes[s], snaps[s], 1);
      compare(names[s], n, &r, &ref, fdv, s == 0 ? r.st.taped_steps : n);
    }
  }
  // While loops: the limit ends them after the first step, a few, many.
  double limits[] = {0.0, 0.5, 0.9};
  for (int l = 0; l < 3; l++) {
    Result ref = hvp(0, &limits[l], NULL, 0, 0);
    double fdv[2 * N + 1];
    fd(0, &limits[l], fdv);
    Result r = hvp(0, &limits[l], &EnzymeCkptStoreAll, 0, 1);
    compare("while store-all", l, &r, &ref, fdv, r.st.taped_steps);
    CHECK("while ran", r.st.taped_steps >= 1, 1, 0);
    Result q = hvp(0, &limits[l], &EnzymeCkptPeriodic, 2, 1);
    compare("while periodic", l, &q, &ref, fdv, r.st.taped_steps);
  }
  // Two directions at once: (vu, vp) and (vp, vu), a const.
  for (int si = 2; si < 5; si++) {
    int64_t n = sizes[si];
    double u[N], ud[2][N], g[2 * N], gd[2][2 * N], p[N], pd[2][N];
    EnzymeCkptStats st;
    memset(&st, 0, sizeof st);
    EnzymeCkptConfig c = {2, 0, NULL, 0, &st};
    memset(g, 0, sizeof g);
    memset(gd, 0, sizeof gd);
    for (int k = 0; k < N; k++) {
      u[k] = u0[k];
      p[k] = p0[k];
      ud[0][k] = pd[1][k] = vu[k];
      pd[0][k] = ud[1][k] = vp[k];
    }
    // d/da's tangents (a is constant here: d/da of d/da is not asked).
    typedef struct { double d[2]; } v2;
    extern v2 __enzyme_fwddiff_v2(void *, ...);
    __enzyme_fwddiff_v2((void *)grad, enzyme_width, 2, enzyme_dup, u, ud[0], ud[1], enzyme_dup, g,
                     gd[0], gd[1], enzyme_dup, p, pd[0], pd[1], enzyme_dup, g + N, gd[0] + N,
                     gd[1] + N, enzyme_const, a0, enzyme_const, n, enzyme_const, (double *)NULL,
                     enzyme_const, &EnzymeCkptRevolve, enzyme_const, &c);
    for (int w = 0; w < 2; w++) {
      double ru[N], rdu[N], rp[N], rdp[N], rg[2 * N], rh[2 * N];
      for (int k = 0; k < N; k++) {
        ru[k] = u0[k];
        rp[k] = p0[k];
        rdu[k] = w ? vp[k] : vu[k];
        rdp[k] = w ? vu[k] : vp[k];
      }
      memset(rg, 0, sizeof rg);
      memset(rh, 0, sizeof rh);
      __enzyme_fwddiff((void *)grad, enzyme_dup, ru, rdu, enzyme_dup, rg, rh, enzyme_dup, rp, rdp,
                       enzyme_dup, rg + N, rh + N, enzyme_const, a0, enzyme_const, n,
                       enzyme_const, (double *)NULL, enzyme_const,
                       (const EnzymeCheckpointScheme *)NULL, enzyme_const,
                       (EnzymeCkptConfig *)NULL);
      char name[64];
      for (int k = 0; k < 2 * N; k++) {
        snprintf(name, sizeof name, "width 2 n=%ld lane %d Hv[%d]", (long)n, w, k);
        CHECK(name, gd[w][k], rh[k], 1e-10);
      }
      for (int k = 0; k < N; k++) {
        snprintf(name, sizeof name, "width 2 n=%ld lane %d tangent after [%d]", (long)n, w, k);
        CHECK(name, ud[w][k], rdu[k], 1e-12);
      }
    }
    CHECK("width 2 steps differentiated", (double)st.taped_steps, (double)n, 0);
  }
  CHECK_DONE();
}
