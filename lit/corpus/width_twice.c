// Enzyme_width given twice (the later one wins: 3 results in a double): exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not hold the 3 value(s)
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_width, 3, 2.0); } // error-here
