// Reverse mode: a buffer grown with realloc while values are appended.
#include "check.h"
double f(const double *x, int n) {
  int cap = 2, len = 0;
  double *buf = (double *)malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      buf = (double *)realloc(buf, cap * sizeof(double));
    }
    buf[len++] = x[i] * x[i];
    if (i > 0) buf[len - 1] += buf[len - 2] * 0.5;
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += buf[i] * (i + 1);
  free(buf);
  return s;
}
int main(void) {
  enum { N = 11 };
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++) x[i] = 0.2 * i - 1;
  __enzyme_autodiff((void *)f, x, dx, N);
  for (int i = 0; i < N; i++) CHECK("drealloc fd", dx[i], FD(x[i], f(x, N), 1e-6), 1e-6);
  CHECK_DONE();
}
