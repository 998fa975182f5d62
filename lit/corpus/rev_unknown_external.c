// Reverse mode: a call to an external function with no body: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: no derivative known for external function 'mystery'
#include <enzyme/enzyme.h>
double mystery(double);
double f(double x) { return mystery(x) * x; } // error-here
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }
