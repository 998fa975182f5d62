// Reverse: enzyme_dupnoneed on an output buffer (its primal values need
// not be written) and enzyme_dup on the input; void function seeded
// through the output's shadow.
#include "check.h"
__attribute__((noinline)) void smooth(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double l = i > 0 ? x[i - 1] : x[i], r = i + 1 < n ? x[i + 1] : x[i];
    y[i] = 0.25 * l + 0.5 * x[i] * x[i] + 0.25 * r;
  }
}
int main(void) {
  enum { N = 6 };
  double x[N] = {0.1, 0.5, -0.3, 1.2, 0.8, -1.0}, dx[N] = {0};
  double y[N] = {0}, dy[N];
  for (int i = 0; i < N; i++) dy[i] = 1.0 + i; /* seed: weights */
  __enzyme_autodiff((void *)smooth, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy, enzyme_const, N);
  /* d/dx_j sum_i w_i y_i */
  for (int j = 0; j < N; j++) {
    double want = (1.0 + j) * x[j];
    if (j > 0) want += 0.25 * (1.0 + j - 1);
    else want += 0.25 * 1.0;
    if (j + 1 < N) want += 0.25 * (1.0 + j + 1);
    else want += 0.25 * (1.0 + j);
    CHECK("dx", dx[j], want, 1e-12);
  }
  for (int i = 0; i < N; i++) CHECK("dy zeroed", dy[i], 0, 0);
  CHECK_DONE();
}
