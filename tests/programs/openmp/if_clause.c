// FLAGS: -fopenmp
// THREADS: 1 2 4
// An if clause: the region runs in parallel or serialized (the outlined
// function called directly) depending on n; both paths differentiate.
#include "check.h"

double f(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) if (n > 50)
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}

int main(void) {
  double x[100], dx[100] = {0};
  for (int i = 0; i < 100; i++) x[i] = 0.01 * i - 0.4;
  for (int n = 20; n <= 100; n += 80) {
    for (int i = 0; i < 100; i++) dx[i] = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < 100; i++) CHECK("dx", dx[i], i < n ? 3 * x[i] * x[i] : 0.0, 1e-12);
  }
  CHECK_DONE();
}
