// Reverse mode: nested loops with run-time bounds (triangular).
#include "check.h"
double f(const double *x, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i % m; j++) s += x[i] * x[j] * (j + 1);
  return s;
}
int main(void) {
  enum { N = 9 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = cos(i * 0.7);
  volatile int n = N, m = 4;
  __enzyme_autodiff((void *)f, x, dx, (int)n, (int)m);
  for (int i = 0; i < N; i++) CHECK("dnested fd", dx[i], FD(x[i], f(x, N, 4), 1e-6), 1e-6);
  CHECK_DONE();
}
