// Two functions each differentiating the other: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: a cycle
// LEVELS: O0
#include <enzyme/enzyme.h>
double g(double x);
double f(double x) { return x > 10 ? x : __enzyme_fwddiff((void *)g, x + 1, 1.0); }
double g(double x) { return x > 10 ? x : __enzyme_fwddiff((void *)f, x + 2, 1.0); } // error-here
int main(void) { return (int)f(1.0); }
