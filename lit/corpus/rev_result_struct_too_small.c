// Reverse mode: three active scalars, the declared struct holds two: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: does not hold
#include <enzyme/enzyme.h>
typedef struct { double a, b; } D2;
D2 __enzyme_autodiff_d2(void *, ...);
double f(double x, double y, double z) { return x * y * z; }
int main(void) {
  D2 d = __enzyme_autodiff_d2((void *)f, 1.0, 2.0, 3.0); // error-here
  return (int)d.a;
}
