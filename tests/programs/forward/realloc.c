// realloc grows a buffer holding active values.
#include "check.h"
double f(double x) {
  int cap = 2, n = 0;
  double *a = (double *)malloc(cap * sizeof(double));
  for (int i = 0; i < 9; i++) {
    if (n == cap) {
      cap *= 2;
      a = (double *)realloc(a, cap * sizeof(double));
    }
    a[n++] = x * x * i;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  free(a);
  return s;
}
int main(void) {
  double x = 1.2;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("df/dx", d, 2 * x * 36, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
