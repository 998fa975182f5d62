// A double passed where the function takes a pointer: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not fit
#include <enzyme/enzyme.h>
double f(double *x) { return x[0]; }
int main(void) { return (int)__enzyme_autodiff((void *)f, enzyme_const, 2.0); } // error-here
