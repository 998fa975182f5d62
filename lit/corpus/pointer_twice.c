// A one-pointer function given two duplicated pointers: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: too many arguments
#include <enzyme/enzyme.h>
double f(double *x) { return x[0] * x[0]; }
int main(void) {
  double x = 1, d = 0;
  return (int)__enzyme_autodiff((void *)f, enzyme_dup, &x, &d, enzyme_dup, &x, &d); // error-here
}
