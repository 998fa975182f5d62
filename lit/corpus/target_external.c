// The target is an external function with no body: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: no derivative known for external function 'ext'
#include <enzyme/enzyme.h>
double ext(double);
int main(void) { return (int)__enzyme_autodiff((void *)ext, 1.0); } // error-here
