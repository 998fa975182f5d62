// FLAGS: -fopenmp
// THREADS: 1 2 4
// single and master blocks inside a region (one thread computes a shared
// value the others then read after the barrier), and omp_get_wtime /
// omp_get_num_threads calls (inactive).
#include "check.h"
#include <omp.h>
#define N 60

double f(const double *x, double *y, double *shared, int n) {
  double s = 0;
#pragma omp parallel
  {
    double t0 = omp_get_wtime();
#pragma omp single
    {
      double m = 0;
      for (int i = 0; i < n; i++) m += x[i];
      *shared = m / n;
    }
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++) {
      y[i] = (x[i] - *shared) * (x[i] - *shared);
      s += y[i];
    }
#pragma omp master
    {
      if (omp_get_wtime() < t0) s += 0;  // inactive timing
      *shared += 0 * omp_get_num_threads();
    }
  }
  return s;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0}, sh = 0, dsh = 0;
  for (int i = 0; i < N; i++) x[i] = sin(0.4 * i) + 0.1 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, &sh, &dsh,
                    enzyme_const, N);
  double m = 0;
  for (int i = 0; i < N; i++) m += x[i];
  m /= N;
  // s = sum (x_i - m)^2: ds/dx_k = 2 (x_k - m) - 2/N sum (x_i - m) = 2 (x_k - m)
  for (int k = 0; k < N; k++) CHECK("dx", dx[k], 2 * (x[k] - m), 1e-10);
  CHECK_DONE();
}
