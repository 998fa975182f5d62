// LEVELS: O2
// The memory a checkpointed loop keeps against the plain loop's tape, for
// 2,000 steps of a 16-variable state: split mode (__enzyme_augmentfwd)
// leaves the tape object to read (bytes pushed: its second field), and the
// scheme reports the snapshot bytes it held. Prints both, checks the
// checkpointed gradient and that it keeps at least 10x less.
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>
#include <string.h>

#define N 16
#define STEPS 2000

__attribute__((noinline)) static void step(int64_t i, double *u, const double *p) {
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = u[k] + 1e-3 * (p[0] * sin(u[(k + 1) % N]) * cos(u[k]) - p[1] * u[k] * u[k] * u[k]);
  for (int k = 0; k < N; k++)
    u[k] = t[k];
}

static double loss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k];
  return s;
}

static double plain(double *u, const double *p) {
  for (int64_t i = 0; i < STEPS; i++)
    step(i, u, p);
  return loss(u);
}

static double ckpt(double *u, const double *p, EnzymeCkptConfig *c) {
  __enzyme_checkpoint_for((void *)step, 0, STEPS, enzyme_scheme, &EnzymeCkptPeriodic, c,
                          enzyme_checkpoint_region, u, (int64_t)sizeof(double) * N, u, p);
  return loss(u);
}

static double ckpt_revolve(double *u, const double *p, EnzymeCkptConfig *c) {
  __enzyme_checkpoint_for((void *)step, 0, STEPS, enzyme_scheme, &EnzymeCkptRevolve, c,
                          enzyme_checkpoint_region, u, (int64_t)sizeof(double) * N, u, p);
  return loss(u);
}

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

static void init(double *u) {
  for (int k = 0; k < N; k++)
    u[k] = 0.5 + 0.03 * k;
}

int main(void) {
  double u[N], du0[N] = {0}, p[2] = {0.9, 0.3}, dp0[2] = {0};
  init(u);
  void *t = __enzyme_augmentfwd((void *)plain, enzyme_dup, u, du0, enzyme_dup, p, dp0);
  int64_t plain_bytes = ((int64_t *)t)[1];
  __enzyme_reverse((void *)plain, enzyme_dup, u, du0, enzyme_dup, p, dp0, 1.0, t);

  EnzymeCkptStats st;
  memset(&st, 0, sizeof st);
  EnzymeCkptConfig cfg = {0, 0, 0, 0, &st};
  double du[N] = {0}, dp[2] = {0};
  init(u);
  void *t2 = __enzyme_augmentfwd((void *)ckpt, enzyme_dup, u, du, enzyme_dup, p, dp, enzyme_const,
                                 &cfg);
  int64_t ckpt_tape = ((int64_t *)t2)[1];
  __enzyme_reverse((void *)ckpt, enzyme_dup, u, du, enzyme_dup, p, dp, enzyme_const, &cfg, 1.0,
                   t2);
  /* Snapshots held at most, plus the driver's two (slots -1 and -2) and the
   * one step's tape alive at a time (at most the plain tape / STEPS). */
  int64_t ckpt_bytes = ckpt_tape + (int64_t)st.max_bytes + 2 * N * 8 + plain_bytes / STEPS;
  printf("plain loop tape: %lld bytes; checkpointed: %lld bytes (tape %lld, %lld snapshots "
         "of %d bytes); %lld steps recomputed, %lld differentiated\n",
         (long long)plain_bytes, (long long)ckpt_bytes, (long long)ckpt_tape,
         (long long)st.max_slots, N * 8, (long long)st.forward_steps,
         (long long)st.taped_steps);
  for (int k = 0; k < N; k++)
    CHECK("du", du[k], du0[k], 1e-10);
  // Revolve with 8 snapshots: fewer snapshots, more recomputation.
  EnzymeCkptStats rs;
  memset(&rs, 0, sizeof rs);
  EnzymeCkptConfig rc = {8, 0, 0, 0, &rs};
  double du2[N] = {0}, dp2[2] = {0};
  init(u);
  __enzyme_autodiff((void *)ckpt_revolve, enzyme_dup, u, du2, enzyme_dup, p, dp2, enzyme_const,
                    &rc);
  printf("revolve, 8 snapshots: %lld snapshots of %d bytes, %lld steps recomputed\n",
         (long long)rs.max_slots, N * 8, (long long)rs.forward_steps);
  for (int k = 0; k < N; k++)
    CHECK("du revolve", du2[k], du0[k], 1e-10);
  CHECK("dp0 revolve", dp2[0], dp0[0], 1e-10);
  CHECK("revolve keeps 8 snapshots", (double)rs.max_slots, 8, 0);
  CHECK("dp0", dp[0], dp0[0], 1e-10);
  CHECK("dp1", dp[1], dp0[1], 1e-10);
  CHECK("memory saved 10x", (double)(ckpt_bytes * 10 < plain_bytes), 1, 0);
  CHECK_DONE();
}
