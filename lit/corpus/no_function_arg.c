// An entry point called with no arguments at all: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: needs the function to differentiate as its first argument
#include <enzyme/enzyme.h>
double __enzyme_autodiff_none(void);
int main(void) { return (int)__enzyme_autodiff_none(); } // error-here
