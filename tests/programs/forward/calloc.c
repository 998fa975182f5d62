// calloc: zero-initialised memory, partly written with active values.
#include "check.h"
double f(double x, int n) {
  double *a = (double *)calloc(n, sizeof(double));
  for (int i = 0; i < n; i += 2) a[i] = sin(x * i);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] + a[i] * a[i];
  free(a);
  return s;
}
int main(void) {
  double x = 0.3;
  int n = 7;
  double d = __enzyme_fwddiff((void *)f, x, 1.0, n);
  double want = 0;
  for (int i = 0; i < n; i += 2) want += (1 + 2 * sin(x * i)) * i * cos(x * i);
  CHECK("df/dx", d, want, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x, n), 1e-6), 1e-6);
  CHECK_DONE();
}
