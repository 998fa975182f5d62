// FLAGS: -fopenmp
// EXPECT-ERROR: OpenMP locks (omp_set_lock) is not supported
// Updates under an OpenMP lock (whose order the reverse would have to
// replay) are a compile error.
#include "check.h"
#include <omp.h>

double f(const double *x, int n) {
  double p = 1;
  omp_lock_t l;
  omp_init_lock(&l);
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    omp_set_lock(&l);
    p *= x[i];
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  return p;
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  return 0;
}
