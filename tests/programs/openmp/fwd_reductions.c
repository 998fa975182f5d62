// FLAGS: -fopenmp
// THREADS: 1 2 4
// Forward mode through max and * reductions, a critical section and a
// dynamic schedule.
#include "check.h"
#define N 64

double f(const double *x, int n) {
  double m = -1e300, p = 1.0, c = 0;
#pragma omp parallel for reduction(max : m) reduction(* : p) schedule(dynamic, 5)
  for (int i = 0; i < n; i++) {
    double v = sin(x[i]) + 0.01 * i;
    if (v > m) m = v;
    p *= 1.0 + 0.05 * x[i];
#pragma omp critical
    c += x[i] * x[i];
  }
  return m + p + c;
}

int main(void) {
  double x[N], t[N];
  for (int i = 0; i < N; i++) x[i] = cos(0.9 * i), t[i] = 1.0 + 0.1 * (i % 3);
  double d = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, N);
  int best = 0;
  double p = 1.0;
  for (int i = 0; i < N; i++) {
    if (sin(x[i]) + 0.01 * i > sin(x[best]) + 0.01 * best) best = i;
    p *= 1.0 + 0.05 * x[i];
  }
  double want = cos(x[best]) * t[best];
  for (int i = 0; i < N; i++) want += p / (1.0 + 0.05 * x[i]) * 0.05 * t[i] + 2 * x[i] * t[i];
  CHECK("dir", d, want, 1e-10);
  CHECK_DONE();
}
