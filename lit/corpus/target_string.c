// The target is a string literal: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: must be a function
#include <enzyme/enzyme.h>
int main(void) { return (int)__enzyme_autodiff((void *)"f", 1.0); } // error-here
