// A pointer passed where the function takes a double: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not fit
#include <enzyme/enzyme.h>
double f(double x) { return x; }
int main(void) {
  double x = 1;
  return (int)__enzyme_autodiff((void *)f, enzyme_const, &x); // error-here
}
