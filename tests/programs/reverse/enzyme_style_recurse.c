// Enzyme-style: a recursive function of one active double.
#include <stdio.h>
#include <math.h>
double __enzyme_autodiff(void *, ...);
double rec(double x, int n) {
  if (n <= 0) return x;
  return sin(rec(x, n - 1)) + x * 0.5;
}
int main() {
  double x = 0.7, h = 1e-6;
  double d = __enzyme_autodiff((void *)rec, x, 5);
  double fd = (rec(x + h, 5) - rec(x - h, 5)) / (2 * h);
  printf("d = %f fd = %f\n", d, fd);
  return fabs(d - fd) > 1e-6;
}
