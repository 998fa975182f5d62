// A derivative of a function whose callee differentiates it: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: a cycle
// LEVELS: O0
#include <enzyme/enzyme.h>
double f(double x);
__attribute__((noinline)) double h(double x) { return __enzyme_autodiff((void *)f, x); } // error-here
double f(double x) { return x > 10 ? x * x : h(x + 1) * x; }
int main(void) { return (int)f(1.0); }
