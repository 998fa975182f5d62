// Reverse mode: an active value stored into enzyme_const memory: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: needs a shadow
#include <enzyme/enzyme.h>
void f(double *out, double x) { out[0] = x * x; } // error-here
int main(void) {
  double o;
  __enzyme_autodiff((void *)f, enzyme_const, &o, 2.0);
  return 0;
}
