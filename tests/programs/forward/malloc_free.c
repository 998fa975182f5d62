// malloc and free inside the differentiated function.
#include "check.h"
double f(double x, int n) {
  double *buf = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) buf[i] = x * (i + 1);
  double s = 0;
  for (int i = 0; i < n; i++) s += buf[i] * buf[n - 1 - i];
  free(buf);
  return s;
}
int main(void) {
  double x = 0.8;
  int n = 6;
  double d = __enzyme_fwddiff((void *)f, x, 1.0, n);
  double k = 0;
  for (int i = 0; i < n; i++) k += (i + 1.0) * (n - i);
  CHECK("df/dx", d, 2 * x * k, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x, n), 1e-6), 1e-6);
  CHECK_DONE();
}
