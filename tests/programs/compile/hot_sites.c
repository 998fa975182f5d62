/* Hot and cold sites of the same derivatives (driver::cleanup,
 * ENZYME_RS_HOT_SITES): a reverse derivative that contains a loop,
 * called in a loop (a hot site, accumulating) and once (a cold site);
 * a derivative with a loop at two sites in loops whose caller zeroes the
 * gradient first (zero fusion: kept inlined); a loop-free derivative in two loops (inlined);
 * a small forward derivative with a loop in a loop over directions and
 * once (inlined at both).
 * Each result is checked against central finite differences. */
#include "../check.h"
#include <string.h>

enum { N = 9, REPS = 4 };
/* Run-time counts: loops LLVM cannot unroll before the plugin runs. */
static volatile int vn = N, vreps = REPS, vone = 1;

static double chain(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += sin(x[i]) * x[i + 1] + 0.1 * x[i] * x[i];
  return s;
}

static double each(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return s;
}

static double tri(const double *x) { return x[0] * cos(x[1]) + x[2] * x[0]; }

static double xs[N], ghot[N], gcold[N], gz[N], gz2[N], gt1[3], gt2[3];

__attribute__((noinline)) static void hot(int n, int reps) {
  for (int r = 0; r < reps; r++) __enzyme_autodiff((void *)chain, enzyme_dup, xs, ghot, enzyme_const, n);
}

__attribute__((noinline)) static void cold(int n) {
  __enzyme_autodiff((void *)chain, enzyme_dup, xs, gcold, enzyme_const, n);
}

__attribute__((noinline)) static void fused(double *g, int n, int reps) {
  for (int r = 0; r < reps; r++) {
    memset(g, 0, sizeof(double) * n);
    __enzyme_autodiff((void *)each, enzyme_dup, xs, g, enzyme_const, n);
  }
}

__attribute__((noinline)) static void fused2(double *g, int n, int reps) {
  for (int r = 0; r < reps; r++) {
    memset(g, 0, sizeof(double) * n);
    __enzyme_autodiff((void *)each, enzyme_dup, xs, g, enzyme_const, n);
  }
}

__attribute__((noinline)) static void small1(int reps) {
  for (int r = 0; r < reps; r++) __enzyme_autodiff((void *)tri, enzyme_dup, xs, gt1);
}

__attribute__((noinline)) static void small2(int reps) {
  for (int r = 0; r < reps; r++) __enzyme_autodiff((void *)tri, enzyme_dup, xs, gt2);
}

__attribute__((noinline)) static void fwd_all(double *out, int n) {
  double dx[N];
  for (int j = 0; j < n; j++) {
    for (int k = 0; k < N; k++) dx[k] = k == j;
    out[j] = __enzyme_fwddiff((void *)chain, enzyme_dup, xs, dx, enzyme_const, n);
  }
}

__attribute__((noinline)) static double fwd_one(int j, int n) {
  double dx[N] = {0};
  dx[j] = 1;
  return __enzyme_fwddiff((void *)chain, enzyme_dup, xs, dx, enzyme_const, n);
}

int main(void) {
  char label[64];
  int n = vn, reps = vreps;
  for (int k = 0; k < N; k++) xs[k] = 0.3 + 0.11 * k - 0.02 * k * k;
  hot(n, reps);
  cold(n);
  fused(gz, n, reps);
  fused2(gz2, n, vone);
  small1(reps);
  small2(vone);
  double fw[N];
  fwd_all(fw, n);
  for (int k = 0; k < N; k++) {
    double fd = FD(xs[k], chain(xs, n), 1e-6);
    snprintf(label, sizeof label, "hot dx[%d]", k);
    CHECK(label, ghot[k], reps * fd, 1e-6);
    snprintf(label, sizeof label, "cold dx[%d]", k);
    CHECK(label, gcold[k], fd, 1e-6);
    double fde = FD(xs[k], each(xs, n), 1e-6);
    snprintf(label, sizeof label, "fused dx[%d]", k);
    CHECK(label, gz[k], fde, 1e-6);
    snprintf(label, sizeof label, "fused2 dx[%d]", k);
    CHECK(label, gz2[k], fde, 1e-6);
    snprintf(label, sizeof label, "fwd loop dx[%d]", k);
    CHECK(label, fw[k], fd, 1e-6);
    snprintf(label, sizeof label, "fwd once dx[%d]", k);
    CHECK(label, fwd_one(k, n), fd, 1e-6);
  }
  for (int k = 0; k < 3; k++) {
    double fd = FD(xs[k], tri(xs), 1e-6);
    snprintf(label, sizeof label, "small1 dx[%d]", k);
    CHECK(label, gt1[k], reps * fd, 1e-6);
    snprintf(label, sizeof label, "small2 dx[%d]", k);
    CHECK(label, gt2[k], fd, 1e-6);
  }
  CHECK_DONE();
}
