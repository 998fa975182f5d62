// Enzyme_width 1000 in reverse mode: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_width must be between 1 and 64
#include <enzyme/enzyme.h>
double f(double *x) { return x[0] * x[0]; }
int main(void) {
  double x = 1, d = 0;
  __enzyme_autodiff((void *)f, enzyme_width, 1000, enzyme_dup, &x, &d); // error-here
  return 0;
}
