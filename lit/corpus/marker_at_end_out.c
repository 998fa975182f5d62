// Enzyme_out as the last argument: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_out
#include <enzyme/enzyme.h>
double f(double x) { return x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, enzyme_out); } // error-here
