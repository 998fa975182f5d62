/* The dispatch pair (modes/reverse/rerun_cost.rs) of a loop whose trip
 * count is an argument, with a budget of 4096 bytes: a call over 4
 * points keeps its tape (the taped pair), one over 40 points exceeds it
 * and runs the re-run pair, which `rerun::mark_cold` optimized for size
 * (ENZYME_RS_RERUN_COLD). Both calls of the one program are checked
 * against central finite differences. */
// FLAGS: -fplugin=%plugin -mllvm -enzyme-rs-rerun-budget=4096
#include "../check.h"
#include <string.h>

enum { NMAX = 40, D = 5 };
#define NL (D * (D - 1) / 2 + D)

static double scratch(const double *x, const double *m, const double *L, int n, int d) {
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - m[j];
    for (int j = 0; j < d; j++) q[j] = exp(m[j]) * xc[j];
    int li = d;
    for (int col = 0; col < d; col++)
      for (int row = col + 1; row < d; row++) q[row] += sin(L[li++]) * xc[col] * xc[row];
    for (int j = 0; j < d; j++) s += q[j] * q[j] + cos(xc[j]) * L[j];
  }
  free(xc);
  free(q);
  return s;
}

static double xs[NMAX * D], ms[D], Ls[NL];
static double dxs[NMAX * D], dms[D], dLs[NL];

static void run(int n) {
  char label[64];
  for (int k = 0; k < NMAX * D; k++) xs[k] = 0.3 + 0.07 * (k % 17) - 0.004 * (k % 11) * k * 0.1;
  for (int k = 0; k < D; k++) ms[k] = 0.5 - 0.13 * k;
  for (int k = 0; k < NL; k++) Ls[k] = 0.1 * k - 0.2;
  memset(dxs, 0, sizeof dxs);
  memset(dms, 0, sizeof dms);
  memset(dLs, 0, sizeof dLs);
  double val = scratch(xs, ms, Ls, n, D);
  __enzyme_autodiff((void *)scratch, enzyme_dup, xs, dxs, enzyme_dup, ms, dms, enzyme_dup, Ls, dLs,
                    enzyme_const, n, enzyme_const, D);
  snprintf(label, sizeof label, "n=%d inputs unchanged", n);
  CHECK(label, scratch(xs, ms, Ls, n, D), val, 1e-12);
  for (int k = 0; k < n * D; k++) {
    snprintf(label, sizeof label, "n=%d dx[%d]", n, k);
    CHECK(label, dxs[k], FD(xs[k], scratch(xs, ms, Ls, n, D), 1e-6), 1e-6);
  }
  for (int k = 0; k < D; k++) {
    snprintf(label, sizeof label, "n=%d dm[%d]", n, k);
    CHECK(label, dms[k], FD(ms[k], scratch(xs, ms, Ls, n, D), 1e-6), 1e-6);
  }
  for (int k = 0; k < NL; k++) {
    snprintf(label, sizeof label, "n=%d dL[%d]", n, k);
    CHECK(label, dLs[k], FD(Ls[k], scratch(xs, ms, Ls, n, D), 1e-6), 1e-6);
  }
}

int main(int argc, char **argv) {
  (void)argv;
  run(4 + 0 * argc);
  run(NMAX + 0 * argc);
  CHECK_DONE();
}
