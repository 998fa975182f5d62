// Enzyme_dupnoneed on an integer: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: cannot be enzyme_dup
#include <enzyme/enzyme.h>
double f(double x, long n) { return x * n; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, enzyme_dupnoneed, 3L, 4L); } // error-here
