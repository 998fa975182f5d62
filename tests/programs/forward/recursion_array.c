// Recursion over an array through pointers (divide and conquer dot product).
#include "check.h"
double rdot(const double *a, const double *b, int n) {
  if (n == 1) return a[0] * b[0];
  int h = n / 2;
  return rdot(a, b, h) + rdot(a + h, b + h, n - h);
}
int main(void) {
  double a[7] = {1, 2, 3, 4, 5, 6, 7}, b[7] = {0.5, -1, 2, 0.25, 1, -2, 3};
  double da[7] = {0}, db[7] = {0};
  da[4] = 1; db[6] = 2;
  double d = __enzyme_fwddiff((void *)rdot, a, da, b, db, 7);
  CHECK("d", d, b[4] + 2 * a[6], 1e-12);
  double f1 = FD(a[4], rdot(a, b, 7), 1e-6), f2 = FD(b[6], rdot(a, b, 7), 1e-6);
  CHECK("d fd", d, f1 + 2 * f2, 1e-6);
  CHECK_DONE();
}
