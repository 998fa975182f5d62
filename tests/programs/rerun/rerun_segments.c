/* The re-run driver's two schedules (runtime/loops_rt.c,
 * __enzyme_rs_loops_rerun_*): a state of at most 256 bytes is snapshotted
 * before every iteration; a larger one before every 16th, and each segment
 * of 16 is run once more in the reverse sweep. Both at trip counts around
 * the segment length (0, 1, 2, 15, 16, 17, 33), with a scratch state that
 * is carried from one iteration to the next (read before it is written),
 * so a wrong restore gives a wrong gradient. Re-run forced
 * (-enzyme-rs-auto-rerun=1); every partial against a central difference,
 * and the primal result against a plain call. */
// FLAGS: -fplugin=%plugin -mllvm -enzyme-rs-auto-rerun=1
#include "../check.h"
#include <string.h>

enum { NMAX = 33, DBIG = 40, DSMALL = 3 };

/* d doubles of carried scratch: 8 d bytes of state (plus the sum). */
static double carried(const double *x, const double *m, int n, int d) {
  double *t = malloc(sizeof(double) * d), *u = malloc(sizeof(double) * d);
  double s = 0;
  for (int j = 0; j < d; j++) t[j] = m[j];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) u[j] = sin(t[j] * x[i] + 0.1 * j);
    for (int j = 0; j < d; j++) {
      double nb = u[(j + 1) % d];
      t[j] = 0.6 * t[j] + 0.5 * u[j] * nb + 0.05 * x[i];
      s += t[j] * u[j];
    }
  }
  for (int j = 0; j < d; j++) s += t[j] * t[j];
  free(t);
  free(u);
  return s;
}

static double xs[NMAX], ms[DBIG], dxs[NMAX], dms[DBIG];

static void check_one(int n, int d) {
  char label[96];
  for (int k = 0; k < NMAX; k++) xs[k] = 0.2 + 0.05 * k - 0.001 * k * k;
  for (int k = 0; k < DBIG; k++) ms[k] = 0.4 - 0.02 * k;
  memset(dxs, 0, sizeof dxs);
  memset(dms, 0, sizeof dms);
  double val = carried(xs, ms, n, d);
  __enzyme_autodiff((void *)carried, enzyme_dup, xs, dxs, enzyme_dup, ms, dms, enzyme_const, n,
                    enzyme_const, d);
  snprintf(label, sizeof label, "n=%d d=%d inputs unchanged", n, d);
  CHECK(label, carried(xs, ms, n, d), val, 1e-12);
  for (int k = 0; k < NMAX; k++) {
    snprintf(label, sizeof label, "n=%d d=%d dx[%d]", n, d, k);
    CHECK(label, dxs[k], FD(xs[k], carried(xs, ms, n, d), 1e-6), 1e-6);
  }
  for (int k = 0; k < d; k++) {
    snprintf(label, sizeof label, "n=%d d=%d dm[%d]", n, d, k);
    CHECK(label, dms[k], FD(ms[k], carried(xs, ms, n, d), 1e-6), 1e-6);
  }
}

int main(void) {
  static const int ns[] = {0, 1, 2, 15, 16, 17, 33};
  for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
    check_one(ns[k], DSMALL);
    check_one(ns[k], DBIG);
  }
  CHECK_DONE();
}
