// The shadow slot of enzyme_dup holds a marker: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: found the marker
#include <enzyme/enzyme.h>
double f(double *x, int n) { return x[0] * n; }
int main(void) {
  double x = 1;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, enzyme_const, 3); // error-here
  return 0;
}
