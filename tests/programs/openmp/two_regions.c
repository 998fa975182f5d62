// FLAGS: -fopenmp
// THREADS: 1 2 4
// Two parallel regions in one function; the buffer the first one writes
// is overwritten between them (the reverse of the first must see the
// values it had then, from its threads' tapes).
#include "check.h"
#define N 120

double f(const double *x, double *buf, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) buf[i] = sin(x[i]);
  double t = 0;
  for (int i = 0; i < n; i++) t += buf[i] * buf[i];  // serial use
  for (int i = 0; i < n; i++) buf[i] = t * x[i];  // overwrite
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += buf[i] * cos(x[i]);
  return s;
}

int main(void) {
  double x[N], dx[N] = {0}, buf[N], dbuf[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.015 * i - 0.3;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, buf, dbuf, enzyme_const, N);
  // f = t * sum_i x_i cos x_i, t = sum sin^2 x
  double t = 0, c = 0;
  for (int i = 0; i < N; i++) t += sin(x[i]) * sin(x[i]), c += x[i] * cos(x[i]);
  for (int i = 0; i < N; i++) {
    double want = 2 * sin(x[i]) * cos(x[i]) * c + t * (cos(x[i]) - x[i] * sin(x[i]));
    CHECK("dx", dx[i], want, 1e-11);
  }
  CHECK("fd", dx[7], FD(x[7], f(x, buf, N), 1e-6), 1e-6);
  CHECK_DONE();
}
