// Enzyme_dup on a double scalar in reverse mode: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: use enzyme_out for active scalars in reverse mode
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) {
  double d = 0;
  return (int)__enzyme_autodiff((void *)f, enzyme_dup, 2.0, &d); // error-here
}
