// FLAGS: -fopenmp
// THREADS: 1 2 4
// Reverse mode of a parallel-for map writing an output array; the seed
// comes through the output's shadow. y[i] = c * sin(x[i]) * x[i], with the
// shared scalar c read by every iteration.
#include "check.h"
#define N 157

void f(const double *x, double *y, double *c, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = *c * sin(x[i]) * x[i];
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N];
  double c = 0.7, dc = 0;
  for (int i = 0; i < N; i++) {
    x[i] = 0.02 * i - 1.0;
    dy[i] = 1.0 + 0.01 * i;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, &c, &dc,
                    enzyme_const, N);
  double want_c = 0;
  for (int i = 0; i < N; i++) {
    double w = 1.0 + 0.01 * i;
    CHECK("dx", dx[i], w * c * (cos(x[i]) * x[i] + sin(x[i])), 1e-12);
    CHECK("dy zeroed", dy[i], 0.0, 0);
    want_c += w * sin(x[i]) * x[i];
  }
  CHECK("dc", dc, want_c, 1e-12);
  CHECK_DONE();
}
