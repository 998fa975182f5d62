// Vector forward mode: the declared result holds one tangent, not 4: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not hold
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, enzyme_width, 4, 2.0, 1.0, 1.0, 1.0, 1.0); } // error-here
