// A float given as the shadow of a pointer: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not fit
#include <enzyme/enzyme.h>
double f(double *x) { return x[0] * x[0]; }
int main(void) {
  double x = 2;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, 1.0); // error-here
  return 0;
}
