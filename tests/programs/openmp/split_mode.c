// FLAGS: -fopenmp
// THREADS: 1 2 4
// Split mode: the augmented forward sweep (parallel) returns a tape, the
// reverse sweep (parallel) runs later from it.
#include "check.h"
#define N 80

double f(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * sin(x[i]);
    s += y[i] * y[i];
  }
  return s;
}

extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.03 * i - 1.1;
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                                   enzyme_const, N);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N, 1.0,
                   tape);
  for (int i = 0; i < N; i++) {
    double yi = x[i] * sin(x[i]);
    CHECK("dx", dx[i], 2 * yi * (sin(x[i]) + x[i] * cos(x[i])), 1e-12);
  }
  CHECK_DONE();
}
