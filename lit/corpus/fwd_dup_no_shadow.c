// Forward mode: enzyme_dup pointer without its shadow: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: has no shadow argument
#include <enzyme/enzyme.h>
double f(double *x) { return x[0] * x[0]; }
int main(void) {
  double x = 1;
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, &x); // error-here
}
