// FLAGS: -fopenmp
// THREADS: 1 2 4
// A max reduction: the adjoint reaches the element holding the maximum
// (whichever thread found it).
#include "check.h"
#define N 300

double f(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] - 0.1 * x[i];
    if (v > m) m = v;
  }
  return m;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = sin(0.37 * i + 0.2);
  int best = 0;
  for (int i = 1; i < N; i++)
    if (x[i] * x[i] - 0.1 * x[i] > x[best] * x[best] - 0.1 * x[best]) best = i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++)
    CHECK("dx", dx[i], i == best ? 2 * x[i] - 0.1 : 0.0, 1e-12);
  CHECK("fd", dx[best], FD(x[best], f(x, N), 1e-7), 1e-5);
  CHECK_DONE();
}
