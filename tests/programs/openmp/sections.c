// FLAGS: -fopenmp
// THREADS: 1 2 4
// sections: clang lowers them to a static worksharing loop over the
// section numbers, which differentiates like any other.
#include "check.h"

void f(const double *x, double *y) {
#pragma omp parallel sections
  {
#pragma omp section
    y[0] = sin(x[0]) * x[1];
#pragma omp section
    y[1] = x[0] * x[0] + exp(x[2]);
#pragma omp section
    y[2] = x[1] * x[2];
  }
}

int main(void) {
  double x[3] = {0.3, -0.7, 1.1}, dx[3] = {0}, y[3], dy[3] = {1, 2, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  CHECK("dx0", dx[0], cos(x[0]) * x[1] + 2 * 2 * x[0], 1e-12);
  CHECK("dx1", dx[1], sin(x[0]) + 3 * x[2], 1e-12);
  CHECK("dx2", dx[2], 2 * exp(x[2]) + 3 * x[1], 1e-12);
  CHECK_DONE();
}
