// Enzyme_out on a pointer argument: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: cannot be enzyme_out: only floating-point scalars
#include <enzyme/enzyme.h>
double f(double *x) { return *x; }
int main(void) {
  double x = 1;
  return (int)__enzyme_autodiff((void *)f, enzyme_out, &x); // error-here
}
