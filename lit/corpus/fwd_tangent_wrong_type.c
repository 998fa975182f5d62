// Forward mode: an integer given as a double's tangent: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not fit
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, enzyme_dup, 2.0, 1); } // error-here
