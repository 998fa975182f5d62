// Enzyme_width 3 with only one shadow for a duplicated pointer: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: is missing: found the marker enzyme_dup
#include <enzyme/enzyme.h>
void f(double *x, double *y) { y[0] = x[0] * x[0]; }
int main(void) {
  double x = 1, y, dx = 1, dy;
  __enzyme_fwddiff((void *)f, enzyme_width, 3, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy); // error-here
  return 0;
}
