// FLAGS: -fopenmp
// THREADS: 1 2 4
// Critical sections updating shared accumulators: a sum and a running
// maximum (non-commutative in reverse: the reverse replays the sections in
// the opposite order, so the adjoint reaches the element that won).
#include "check.h"
#define N 64

double f(const double *x, int n) {
  double s = 0, mx = -1e300;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
#pragma omp critical
    {
      s += v;
      if (v * x[i] > mx) mx = v * x[i];
    }
  }
  return s * mx;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = cos(0.7 * i);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  double s = 0, mx = -1e300;
  int k = 0;
  for (int i = 0; i < N; i++) {
    s += x[i] * x[i];
    if (x[i] * x[i] * x[i] > mx) mx = x[i] * x[i] * x[i], k = i;
  }
  for (int i = 0; i < N; i++) {
    double want = 2 * x[i] * mx + (i == k ? s * 3 * x[i] * x[i] : 0.0);
    CHECK("dx", dx[i], want, 1e-10);
  }
  CHECK("fd", dx[5], FD(x[5], f(x, N), 1e-6), 1e-6);
  CHECK_DONE();
}
