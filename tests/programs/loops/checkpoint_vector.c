// Vector reverse mode (enzyme_width 3) through checkpointed loops: three
// rows of the Jacobian of three outputs of the final state, with respect
// to the state and to an active float argument of the step (its adjoint
// summed per lane), for every scheme, number of steps and snapshots, and
// a while loop. Each row must equal the scalar gradient of that output
// through the plain loop (itself checked against central differences);
// the state after must be the plain loop's. Forward vector mode through
// the same loop must give the plain loop's tangents.
// LEVELS: O0 O1 O2 O3
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>
#include <string.h>

#define N 4
#define W 3

__attribute__((noinline)) static void step(int64_t i, double *u, double a) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + 0.03 * a * u[(k + 1) % N] * u[k] + 0.01 * sin(u[k] + 0.1 * (double)i);
  for (int k = 0; k < N; k++)
    u[k] = t[k];
}

__attribute__((noinline)) static int wstep(int64_t i, double *u, double a) {
  step(i, u, a);
  return i < 5;
}

static void outputs(const double *u, double *o) {
  double s = 0, p = 1, c = 0;
  for (int k = 0; k < N; k++) {
    s += u[k] * u[k];
    p *= 1.0 + 0.1 * u[k];
    c += cos(u[k]) * (double)(k + 1);
  }
  o[0] = s;
  o[1] = p;
  o[2] = c;
}

static void plain(double *u, double *o, double a, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    step(i, u, a);
  outputs(u, o);
}

static void ckpt(double *u, double *o, double a, int64_t n, const EnzymeCheckpointScheme *s,
                 EnzymeCkptConfig *c) {
  if (s)
    __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, s, c, enzyme_checkpoint_region, u,
                            (int64_t)(N * sizeof(double)), u, a);
  else
    __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u,
                            (int64_t)(N * sizeof(double)), u, a);
  outputs(u, o);
}

static void wplain(double *u, double *o, double a) {
  int64_t i = 0;
  while (wstep(i++, u, a))
    ;
  outputs(u, o);
}

static void wckpt(double *u, double *o, double a) {
  __enzyme_checkpoint_while((void *)wstep, enzyme_checkpoint_region, u,
                            (int64_t)(N * sizeof(double)), u, a);
  outputs(u, o);
}

static void init(double *u) {
  for (int k = 0; k < N; k++)
    u[k] = 0.4 + 0.2 * k;
}

static const double a0 = 0.8;

typedef struct {
  double d[W];
} vw;

static double out_j(int64_t n, int j, int k, double h, int is_while) {
  double u[N], o[W], a = a0;
  init(u);
  if (k < N)
    u[k] += h;
  else
    a += h;
  if (is_while)
    wplain(u, o, a);
  else
    plain(u, o, a, n);
  return o[j];
}

int main(void) {
  const EnzymeCheckpointScheme *schemes[] = {NULL, &EnzymeCkptPeriodic, &EnzymeCkptStoreAll,
                                             &EnzymeCkptRevolve, &EnzymeCkptRevolve,
                                             &EnzymeCkptRevolve};
  const char *names[] = {"default", "periodic", "store-all", "revolve1", "revolve2", "revolve3"};
  int64_t snaps[] = {0, 2, 0, 1, 2, 3};
  int64_t sizes[] = {0, 1, 2, 7, 16};
  char name[96];
  for (int si = 0; si <= 5; si++) {
    int is_while = si == 5;
    int64_t n = is_while ? 0 : sizes[si];
    // Row j of the plain loop: the scalar gradient of output j.
    double want[W][N + 1], uend[N];
    for (int j = 0; j < W; j++) {
      double u[N], du[N] = {0}, o[W], dout[W] = {0};
      init(u);
      dout[j] = 1.0;
      double da = is_while ? __enzyme_autodiff((void *)wplain, enzyme_dup, u, du, enzyme_dup, o,
                                               dout, a0)
                           : __enzyme_autodiff((void *)plain, enzyme_dup, u, du, enzyme_dup, o,
                                               dout, a0, enzyme_const, n);
      memcpy(want[j], du, sizeof du);
      want[j][N] = da;
      memcpy(uend, u, sizeof u);
      for (int k = 0; k <= N; k++) {
        snprintf(name, sizeof name, "%s n=%ld plain row %d [%d] fd", is_while ? "while" : "for",
                 (long)n, j, k);
        CHECK(name, want[j][k],
              (out_j(n, j, k, 1e-6, is_while) - out_j(n, j, k, -1e-6, is_while)) / 2e-6, 1e-6);
      }
    }
    for (int s = 0; s < (is_while ? 1 : 6); s++) {
      EnzymeCkptStats st;
      memset(&st, 0, sizeof st);
      EnzymeCkptConfig c = {snaps[s], 0, NULL, 0, &st};
      double u[N], o[W], du[W][N], dout[W][W];
      memset(du, 0, sizeof du);
      memset(dout, 0, sizeof dout);
      for (int j = 0; j < W; j++)
        dout[j][j] = 1.0;
      init(u);
      extern vw __enzyme_autodiff_vw(void *, ...);
      vw da = is_while ? __enzyme_autodiff_vw((void *)wckpt, enzyme_width, W, enzyme_dup, u,
                                              du[0], du[1], du[2], enzyme_dup, o, dout[0],
                                              dout[1], dout[2], a0)
                       : __enzyme_autodiff_vw((void *)ckpt, enzyme_width, W, enzyme_dup, u,
                                              du[0], du[1], du[2], enzyme_dup, o, dout[0],
                                              dout[1], dout[2], a0, enzyme_const, n,
                                              enzyme_const, schemes[s], enzyme_const, &c);
      const char *what = is_while ? "while" : names[s];
      for (int j = 0; j < W; j++) {
        for (int k = 0; k < N; k++) {
          snprintf(name, sizeof name, "%s n=%ld row %d du[%d]", what, (long)n, j, k);
          CHECK(name, du[j][k], want[j][k], 1e-10);
        }
        snprintf(name, sizeof name, "%s n=%ld row %d da", what, (long)n, j);
        CHECK(name, da.d[j], want[j][N], 1e-10);
      }
      for (int k = 0; k < N; k++) {
        snprintf(name, sizeof name, "%s n=%ld state after [%d]", what, (long)n, k);
        CHECK(name, u[k], uend[k], 1e-14);
      }
    }
    if (is_while)
      continue;
    // Forward vector mode: three tangents of the state at once.
    double v[W][N], tw[W][W];
    for (int j = 0; j < W; j++)
      for (int k = 0; k < N; k++)
        v[j][k] = j == k ? 1.0 : 0.1 * (double)(j + k);
    for (int j = 0; j < W; j++) {
      double u[N], du[N], o[W], dout[W] = {0};
      init(u);
      memcpy(du, v[j], sizeof du);
      __enzyme_fwddiff((void *)plain, enzyme_dup, u, du, enzyme_dup, o, dout, enzyme_const, a0,
                       enzyme_const, n);
      memcpy(tw[j], dout, sizeof dout);
    }
    EnzymeCkptConfig c = {2, 0, NULL, 0, NULL};
    double u[N], o[W], du[W][N], dout[W][W];
    memset(dout, 0, sizeof dout);
    memcpy(du, v, sizeof du);
    init(u);
    __enzyme_fwddiff((void *)ckpt, enzyme_width, W, enzyme_dup, u, du[0], du[1], du[2],
                     enzyme_dup, o, dout[0], dout[1], dout[2], enzyme_const, a0, enzyme_const,
                     n, enzyme_const, &EnzymeCkptRevolve, enzyme_const, &c);
    for (int j = 0; j < W; j++)
      for (int k = 0; k < W; k++) {
        snprintf(name, sizeof name, "forward n=%ld lane %d out[%d]", (long)n, j, k);
        CHECK(name, dout[j][k], tw[j][k], 1e-10);
      }
  }
  CHECK_DONE();
}
