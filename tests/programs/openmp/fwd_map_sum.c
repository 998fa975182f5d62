// FLAGS: -fopenmp
// THREADS: 1 2 4
// Forward mode through a parallel-for map writing y and a + reduction.
#include "check.h"
#define N 200

double f(const double *x, double *y, double a, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = a * exp(0.1 * x[i]);
    s += y[i] * x[i];
  }
  return s;
}

int main(void) {
  double x[N], dx[N], y[N], dy[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.01 * i - 0.5;
    dx[i] = 1.0 + 0.001 * i;
  }
  double a = 1.3;
  // direction (dx, da = 0.5)
  double ds = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, a, 0.5,
                               enzyme_const, N);
  double want = 0;
  for (int i = 0; i < N; i++) {
    double e = exp(0.1 * x[i]);
    double dyi = 0.5 * e + a * 0.1 * e * dx[i];
    CHECK("dy", dy[i], dyi, 1e-12);
    want += dyi * x[i] + a * e * dx[i];
  }
  CHECK("ds", ds, want, 1e-10);
  CHECK_DONE();
}
