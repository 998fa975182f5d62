// FLAGS: -fopenmp
// THREADS: 1 2 4
// A 1-D three-point stencil: neighbouring iterations (and threads at the
// chunk borders) read the same x, so their adjoints meet in one shadow.
#include "check.h"
#define N 250

void step(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    y[i] = x[i - 1] - 2 * x[i] + x[i + 1] + 0.1 * x[i] * x[i];
}

int main(void) {
  double x[N], dx[N] = {0}, y[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++) x[i] = sin(0.05 * i);
  for (int i = 1; i < N - 1; i++) dy[i] = 1.0 + 0.001 * i;
  __enzyme_autodiff((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double want = 0;
    for (int i = 1; i < N - 1; i++) {
      double w = 1.0 + 0.001 * i;
      if (k == i - 1 || k == i + 1) want += w;
      if (k == i) want += w * (-2 + 0.2 * x[i]);
    }
    CHECK("dx", dx[k], want, 1e-12);
  }
  CHECK_DONE();
}
