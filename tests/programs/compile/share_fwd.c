/* Shared scalar forward derivatives and cold fused sites
 * (driver::cleanup, ENZYME_RS_SHARE_FWD, ENZYME_RS_SHARE_COLD_FUSED,
 * driver::drop_unread_fields): a scalar forward derivative with loops of
 * over 100 instructions at a site in a loop over directions and at a
 * site outside loops (one shared body, its primal result dropped); a
 * recursive forward derivative (reads its own primal result) at two
 * sites; a reverse derivative whose caller zeroes the gradient first,
 * fused at two sites in loops (inlined) and at two sites outside loops
 * (calls to the shared fused copy, which must zero what the caller's
 * memset zeroed). Each result against central finite differences. */
#include "../check.h"
#include <string.h>

enum { N = 9, REPS = 3 };
/* Run-time counts: loops LLVM cannot unroll before the plugin runs. */
static volatile int vn = N, vreps = REPS, vdepth = 4;

static double mix(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double a = exp(w[i] * x[i]) / (1 + x[i] * x[i]);
    double b = log(1 + a * a) * sin(x[i] - w[i]);
    s += a * b + cos(a - b) * x[i];
  }
  for (int i = 0; i + 1 < n; i++) {
    double c = tanh(x[i] * x[i + 1] - w[i]);
    s += c * c * w[i + 1] + sqrt(1 + x[i + 1] * x[i + 1]) * exp(-c);
  }
  return s;
}

static double rec(double x, int n) { return n <= 0 ? x : sin(rec(x, n - 1)) * x + 0.1 * x; }

static double cube(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i] - 0.5 * x[i];
  return s;
}

static double xs[N], ws[N], gl1[N], gl2[N], gc1[N], gc2[N];

__attribute__((noinline)) static void fwd_all(double *out, int n) {
  double dx[N];
  for (int j = 0; j < n; j++) {
    for (int k = 0; k < N; k++) dx[k] = k == j;
    out[j] = __enzyme_fwddiff((void *)mix, enzyme_dup, xs, dx, enzyme_const, ws, enzyme_const, n);
  }
}

__attribute__((noinline)) static double fwd_one(int j, int n) {
  double dx[N] = {0};
  dx[j] = 1;
  return __enzyme_fwddiff((void *)mix, enzyme_dup, xs, dx, enzyme_const, ws, enzyme_const, n);
}

__attribute__((noinline)) static double rec_a(double x, int d) { return __enzyme_fwddiff((void *)rec, x, 1.0, d); }
__attribute__((noinline)) static double rec_b(double x, int d) { return __enzyme_fwddiff((void *)rec, x, 1.0, d); }

__attribute__((noinline)) static void loop1(double *g, int n, int reps) {
  for (int r = 0; r < reps; r++) {
    memset(g, 0, sizeof(double) * n);
    __enzyme_autodiff((void *)cube, enzyme_dup, xs, g, enzyme_const, n);
  }
}

__attribute__((noinline)) static void loop2(double *g, int n, int reps) {
  for (int r = 0; r < reps; r++) {
    memset(g, 0, sizeof(double) * n);
    __enzyme_autodiff((void *)cube, enzyme_dup, xs, g, enzyme_const, n);
  }
}

__attribute__((noinline)) static void cold1(double *g, int n) {
  memset(g, 0, sizeof(double) * n);
  __enzyme_autodiff((void *)cube, enzyme_dup, xs, g, enzyme_const, n);
}

__attribute__((noinline)) static void cold2(double *g, int n) {
  memset(g, 0, sizeof(double) * n);
  __enzyme_autodiff((void *)cube, enzyme_dup, xs, g, enzyme_const, n);
}

int main(void) {
  char label[64];
  int n = vn, reps = vreps, depth = vdepth;
  for (int k = 0; k < N; k++) {
    xs[k] = 0.3 + 0.11 * k - 0.02 * k * k;
    ws[k] = 0.5 - 0.07 * k;
  }
  double fw[N];
  fwd_all(fw, n);
  loop1(gl1, n, reps);
  loop2(gl2, n, vreps > 0 ? 1 : 0);
  /* Twice each: the second call must zero, not add to, the first. */
  cold1(gc1, n);
  cold1(gc1, n);
  cold2(gc2, n);
  cold2(gc2, n);
  for (int k = 0; k < N; k++) {
    double fd = FD(xs[k], mix(xs, ws, n), 1e-6);
    snprintf(label, sizeof label, "fwd loop dx[%d]", k);
    CHECK(label, fw[k], fd, 1e-6);
    snprintf(label, sizeof label, "fwd once dx[%d]", k);
    CHECK(label, fwd_one(k, n), fd, 1e-6);
    double fc = FD(xs[k], cube(xs, n), 1e-6);
    snprintf(label, sizeof label, "fused loop1 dx[%d]", k);
    CHECK(label, gl1[k], fc, 1e-6);
    snprintf(label, sizeof label, "fused loop2 dx[%d]", k);
    CHECK(label, gl2[k], fc, 1e-6);
    snprintf(label, sizeof label, "fused cold1 dx[%d]", k);
    CHECK(label, gc1[k], fc, 1e-6);
    snprintf(label, sizeof label, "fused cold2 dx[%d]", k);
    CHECK(label, gc2[k], fc, 1e-6);
  }
  double r0 = 0.7;
  double fr = FD(r0, rec(r0, depth), 1e-6);
  CHECK("rec a", rec_a(r0, depth), fr, 1e-6);
  CHECK("rec b", rec_b(r0, depth), fr, 1e-6);
  CHECK_DONE();
}
