// Forward mode: one argument missing: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: too few arguments to __enzyme_fwddiff
#include <enzyme/enzyme.h>
double f(double x, double y) { return x * y; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0); } // error-here
