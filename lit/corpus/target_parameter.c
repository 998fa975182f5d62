// The target is a function pointer parameter: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: must be a function
// LEVELS: O0
#include <enzyme/enzyme.h>
__attribute__((noinline)) double d(double (*fp)(double), double x) {
  return __enzyme_autodiff((void *)fp, x); // error-here
}
double sq(double x) { return x * x; }
int main(void) { return (int)d(sq, 2.0); }
