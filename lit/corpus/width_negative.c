// Enzyme_width -3: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_width must be between 1 and 64
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, enzyme_width, -3, 1.0); } // error-here
