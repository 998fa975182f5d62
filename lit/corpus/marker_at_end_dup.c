// Enzyme_dup as the last argument: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_dup
#include <enzyme/enzyme.h>
double f(double *x) { return x[0]; }
int main(void) { return (int)__enzyme_autodiff((void *)f, enzyme_dup); } // error-here
