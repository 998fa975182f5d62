// The target is a global variable, not a function: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: must be a function
#include <enzyme/enzyme.h>
double g = 3;
int main(void) { return (int)__enzyme_autodiff((void *)&g, 1.0); } // error-here
