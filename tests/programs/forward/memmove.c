// memmove with overlapping ranges shifts the shadow the same way.
#include "check.h"
#include <string.h>
void shift(double *a, int n) {
  memmove(a + 1, a, (n - 1) * sizeof(double));
  a[0] = a[1] * a[2];
}
double wrap(double x) {
  double a[4] = {x, 2 * x, 3.0, x * x};
  shift(a, 4);
  return a[0] + a[1] * 10 + a[2] * 100 + a[3] * 1000;
}
int main(void) {
  double a[4] = {1, 2, 3, 4}, da[4] = {1, 10, 100, 1000};
  __enzyme_fwddiff((void *)shift, enzyme_dup, a, da, 4);
  /* after: a = {1*2, 1, 2, 3} */
  CHECK("da1", da[1], 1, 0);
  CHECK("da2", da[2], 10, 0);
  CHECK("da3", da[3], 100, 0);
  CHECK("da0", da[0], 1 * 2 + 1 * 10, 1e-12);
  double x = 0.7;
  double d = __enzyme_fwddiff((void *)wrap, x, 1.0);
  /* a = {x*2x, x, 2x, 3} -> 2x^2 + 10x + 200x + 3000 */
  CHECK("dwrap", d, 4 * x + 210, 1e-12);
  CHECK("dwrap fd", d, FD(x, wrap(x), 1e-6), 1e-6);
  CHECK_DONE();
}
