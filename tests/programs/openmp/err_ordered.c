// FLAGS: -fopenmp
// EXPECT-ERROR: err_ordered.c:11
// An ordered region is a compile error naming the construct and its line.
#include "check.h"

double f(double *x, int n) {
  double s = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
#pragma omp ordered
    s += v;
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  return 0;
}
