// A function that differentiates itself (forward): exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: a cycle
// LEVELS: O0
#include <enzyme/enzyme.h>
double f(double x) {
  if (x > 10) return x;
  return x * __enzyme_fwddiff((void *)f, x + 1, 1.0); // error-here
}
int main(void) { return (int)f(1.0); }
