// Enzyme_out on an integer argument: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: cannot be enzyme_out
#include <enzyme/enzyme.h>
double f(double x, int n) { return x * n; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, enzyme_out, 3); } // error-here
