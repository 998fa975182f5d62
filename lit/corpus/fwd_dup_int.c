// Enzyme_dup on an integer in forward mode: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: cannot be enzyme_dup
#include <enzyme/enzyme.h>
double f(double x, int n) { return x * n; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0, enzyme_dup, 3, 4); } // error-here
