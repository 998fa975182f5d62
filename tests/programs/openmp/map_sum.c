// FLAGS: -fopenmp
// THREADS: 1 2 4
// Parallel-for map with a + reduction: f(x, a) = sum_i a * sin(x[i]) * x[i].
#include "check.h"
#define N 100

double f(const double *x, double a, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a * sin(x[i]) * x[i];
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.01 * i + 0.3;
  double a = 1.7;
  double da = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, a, enzyme_const, N);
  for (int i = 0; i < N; i++)
    CHECK("dx", dx[i], a * (cos(x[i]) * x[i] + sin(x[i])), 1e-12);
  double want = 0;
  for (int i = 0; i < N; i++) want += sin(x[i]) * x[i];
  CHECK("da", da, want, 1e-12);
  CHECK("da fd", da, FD(a, f(x, a, N), 1e-6), 1e-6);
  CHECK_DONE();
}
