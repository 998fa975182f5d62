// Reverse mode: inline assembly on an active value: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: inline assembly
#include <enzyme/enzyme.h>
double f(double x) {
  double y;
  __asm__("movsd %1, %0" : "=x"(y) : "x"(x)); // error-here
  return y * x;
}
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); }
