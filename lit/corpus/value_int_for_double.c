// An integer passed where the function takes a double: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not fit
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 3); } // error-here
