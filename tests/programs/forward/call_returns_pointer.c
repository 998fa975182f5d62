// A called function that returns a pointer into active memory: its
// derivative returns the shadow pointer as well.
#include "check.h"
__attribute__((noinline)) double *at(double *a, int i) { return a + i; }
__attribute__((noinline)) double *larger(double *a, double *b) { return *a > *b ? a : b; }
double h(double *a) {
  double *p = at(a, 2);
  *p = *p * *p;
  double *q = larger(at(a, 0), at(a, 1));
  return *at(a, 1) * *p + *q;
}
int main(void) {
  double a[3] = {1, 2, 3}, da[3] = {0.5, 1, 1};
  double d = __enzyme_fwddiff((void *)h, a, da);
  /* a2 <- 9 (da2 <- 6); result a1*a2 + max(a0, a1) = 2*9 + 2 */
  CHECK("dh", d, 1 * 9 + 2 * 6 + 1, 1e-12);
  CHECK("a2", a[2], 9, 0);
  CHECK("da2", da[2], 6, 1e-12);
  double b[3] = {1, 2, 3};
  double fd = FD(b[1], ({ double c[3] = {b[0], b[1], b[2]}; h(c); }), 1e-6);
  double fd0 = FD(b[0], ({ double c[3] = {b[0], b[1], b[2]}; h(c); }), 1e-6);
  double fd2 = FD(b[2], ({ double c[3] = {b[0], b[1], b[2]}; h(c); }), 1e-6);
  CHECK("dh fd", d, 0.5 * fd0 + fd + fd2, 1e-6);
  CHECK_DONE();
}
