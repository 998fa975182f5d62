// Reverse mode: two active scalars, the declared result holds one: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not hold
#include <enzyme/enzyme.h>
double f(double x, double y) { return x * y; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, 2.0); } // error-here
