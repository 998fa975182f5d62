// memset zeroes the shadow as well (the overwritten values lose their tangent).
#include "check.h"
#include <string.h>
void reset_tail(double *a, int n, int k) {
  memset(a + k, 0, (n - k) * sizeof(double));
  for (int i = 0; i < k; i++) a[i] *= a[i];
}
double f(double x) {
  double a[6];
  for (int i = 0; i < 6; i++) a[i] = x * (i + 1);
  memset(a, 0, 3 * sizeof(double));
  double s = 0;
  for (int i = 0; i < 6; i++) s += a[i] * a[i];
  return s;
}
int main(void) {
  double a[5] = {1, 2, 3, 4, 5}, da[5] = {1, 1, 1, 1, 1};
  __enzyme_fwddiff((void *)reset_tail, enzyme_dup, a, da, 5, 2);
  CHECK("da0", da[0], 2 * 1, 1e-12);
  CHECK("da1", da[1], 2 * 2, 1e-12);
  CHECK("da2 zeroed", da[2], 0, 0);
  CHECK("da4 zeroed", da[4], 0, 0);
  double x = 0.5;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("df/dx", d, 2 * x * (16 + 25 + 36), 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
