// FLAGS: -fplugin=%plugin
// Checkpointed loops whose step writes globals it reads: an integer
// counter (no derivative) and an array of doubles (with one; its shadow is
// named with enzyme_shadow so the test can clear it and read the gradient
// with respect to its initial values). A step run again from a snapshot
// must see them as they were, so the snapshots hold the globals the step
// writes, named as regions or not (as Enzyme does). The gradient must equal
// the plain loop's and central differences, for several schemes and step
// counts, and through two levels of checkpointing (a checkpointed loop of
// segments, each a checkpointed loop of steps).
// LEVELS: O0 O1 O2 O3
#include "../check.h"
#include <enzyme/checkpoint.h>
#include <stdint.h>
#include <string.h>

#define N 3

double d_mix[N];
double mix[N] __attribute__((enzyme_shadow(d_mix)));
static int64_t phase;

__attribute__((noinline)) static void step(int64_t i, double *u) {
  phase = (5 * phase + 2) % 7;
  double t[N];
  for (int k = 0; k < N; k++)
    t[k] = 0.9 * u[k] + 0.1 * sin(mix[k] + 0.05 * (double)phase) + 0.02 * u[(k + 1) % N] * u[k];
  for (int k = 0; k < N; k++) {
    mix[k] = 0.6 * mix[k] + 0.3 * t[k] * u[k];
    u[k] = t[k];
  }
}

static double loss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++)
    s += u[k] * u[k] + 0.5 * mix[k];
  return s;
}

static double plain(double *u, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    step(i, u);
  return loss(u);
}

static double ckpt(double *u, int64_t n, const EnzymeCheckpointScheme *s, EnzymeCkptConfig *c) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, s, c, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u);
  return loss(u);
}

// The same with the array named as a region (the counter is not).
static double named(double *u, int64_t n, const EnzymeCheckpointScheme *s, EnzymeCkptConfig *c) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, s, c, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), enzyme_checkpoint_region, mix,
                          (int64_t)sizeof mix, u);
  return loss(u);
}

typedef struct {
  int64_t inner;
  EnzymeCkptConfig *config;
} Levels;

__attribute__((noinline)) static void segment(int64_t k, double *u, Levels *lv) {
  __enzyme_checkpoint_for((void *)step, k * lv->inner, lv->inner, enzyme_scheme,
                          &EnzymeCkptRevolve, lv->config, enzyme_checkpoint_region, u,
                          (int64_t)(N * sizeof(double)), u);
}

static double two_level(double *u, int64_t outer, Levels *lv, EnzymeCkptConfig *c) {
  __enzyme_checkpoint_for((void *)segment, 0, outer, enzyme_scheme, &EnzymeCkptPeriodic, c,
                          enzyme_checkpoint_region, u, (int64_t)(N * sizeof(double)), u, lv);
  return loss(u);
}

static void init(double *u) {
  phase = 1;
  for (int k = 0; k < N; k++) {
    u[k] = 0.3 + 0.2 * k;
    mix[k] = 0.1 * (k + 1);
  }
}

// The gradient (u then the initial mix) by one of the variants.
static void gradient(int variant, int64_t n, double *g) {
  double u[N];
  EnzymeCkptConfig c = {2, 0, NULL, 0, NULL}, ic = {2, 0, NULL, 0, NULL};
  Levels lv = {3, &ic};
  init(u);
  memset(g, 0, 2 * N * sizeof(double));
  memset(d_mix, 0, sizeof d_mix);
  switch (variant) {
  case 0:
    __enzyme_autodiff((void *)plain, enzyme_dup, u, g, enzyme_const, n);
    break;
  case 1:
    __enzyme_autodiff((void *)ckpt, enzyme_dup, u, g, enzyme_const, n, enzyme_const,
                      &EnzymeCkptPeriodic, enzyme_const, &c);
    break;
  case 2:
    __enzyme_autodiff((void *)ckpt, enzyme_dup, u, g, enzyme_const, n, enzyme_const,
                      &EnzymeCkptRevolve, enzyme_const, &c);
    break;
  case 3:
    __enzyme_autodiff((void *)named, enzyme_dup, u, g, enzyme_const, n, enzyme_const,
                      &EnzymeCkptStoreAll, enzyme_const, &c);
    break;
  default: // n / 3 segments of 3 steps
    __enzyme_autodiff((void *)two_level, enzyme_dup, u, g, enzyme_const, n / 3, enzyme_const,
                      &lv, enzyme_const, &c);
  }
  memcpy(g + N, d_mix, sizeof d_mix);
}

static double value(int64_t n, int which, double h) {
  double u[N];
  init(u);
  if (which < N)
    u[which] += h;
  else
    mix[which - N] += h;
  return plain(u, n);
}

int main(void) {
  const char *names[] = {"plain", "periodic", "revolve", "named", "two levels"};
  int64_t sizes[] = {1, 3, 9, 12};
  for (int si = 0; si < 4; si++) {
    int64_t n = sizes[si];
    double ref[2 * N];
    gradient(0, n, ref);
    char name[64];
    for (int k = 0; k < 2 * N; k++) {
      double fd = (value(n, k, 1e-6) - value(n, k, -1e-6)) / 2e-6;
      snprintf(name, sizeof name, "plain n=%ld [%d] fd", (long)n, k);
      CHECK(name, ref[k], fd, 1e-6);
    }
    for (int v = 1; v < 5; v++) {
      if (v == 4 && n % 3)
        continue; // segments of 3 steps
      double g[2 * N];
      gradient(v, n, g);
      for (int k = 0; k < 2 * N; k++) {
        snprintf(name, sizeof name, "%s n=%ld [%d]", names[v], (long)n, k);
        CHECK(name, g[k], ref[k], 1e-11);
      }
    }
  }
  CHECK_DONE();
}
