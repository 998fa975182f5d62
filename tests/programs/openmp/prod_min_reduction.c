// FLAGS: -fopenmp
// THREADS: 1 2 4
// A * reduction and a min reduction in one loop (both non-commutative in
// their reverse: the reverse replays the combining order backwards).
#include "check.h"
#define N 40

double f(const double *x, int n) {
  double p = 1.0, m = 1e300;
#pragma omp parallel for reduction(* : p) reduction(min : m)
  for (int i = 0; i < n; i++) {
    p *= 1.0 + 0.1 * x[i];
    m = fmin(m, cos(x[i]));
  }
  return p + 3.0 * m;
}

int main(void) {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.5 + 0.3 * sin(1.3 * i);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  double p = 1.0;
  int mi = 0;
  for (int i = 0; i < N; i++) {
    p *= 1.0 + 0.1 * x[i];
    if (cos(x[i]) < cos(x[mi])) mi = i;
  }
  for (int i = 0; i < N; i++) {
    double want = p / (1.0 + 0.1 * x[i]) * 0.1 + (i == mi ? -3.0 * sin(x[i]) : 0.0);
    CHECK("dx", dx[i], want, 1e-10);
  }
  CHECK("fd", dx[3], FD(x[3], f(x, N), 1e-6), 1e-6);
  CHECK_DONE();
}
