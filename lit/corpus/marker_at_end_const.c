// Enzyme_const as the last argument: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: has no argument after it
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, enzyme_const); } // error-here
