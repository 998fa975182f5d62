// Reverse mode: a marked argument left over: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: too many arguments
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, enzyme_const, 3); } // error-here
