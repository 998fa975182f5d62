// Reverse mode: an argument left over: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: too many arguments to __enzyme_autodiff
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, 2.0, 3.0); } // error-here
