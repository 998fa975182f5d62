// Enzyme_allocated in forward mode: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_allocated is a split-mode marker
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, enzyme_allocated, 16, 1.0, 1.0); } // error-here
