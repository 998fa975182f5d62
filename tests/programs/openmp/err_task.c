// FLAGS: -fopenmp
// EXPECT-ERROR: OpenMP task is not supported
// Tasks inside a differentiated parallel region are a compile error.
#include "check.h"

double f(double *x, int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task
    x[i] = x[i] * x[i];
  }
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  return 0;
}
