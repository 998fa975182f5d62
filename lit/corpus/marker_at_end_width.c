// Enzyme_width as the last argument: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_width
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0, enzyme_width); } // error-here
