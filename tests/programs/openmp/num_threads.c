// FLAGS: -fopenmp
// THREADS: 1 2 4
// num_threads(3) on the region: the reverse runs on a team of 3 as well;
// each thread adds its own partial into a slot indexed by its number.
#include "check.h"
#include <omp.h>
#define N 100

double f(const double *x, int n) {
  double part[8] = {0};
#pragma omp parallel num_threads(3)
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int i = t; i < n; i += nt) part[t] += x[i] * x[i] * x[i];
  }
  double s = 0;
  for (int t = 0; t < 8; t++) s += part[t];
  return s;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.01 * i - 0.2;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) CHECK("dx", dx[i], 3 * x[i] * x[i], 1e-12);
  CHECK_DONE();
}
