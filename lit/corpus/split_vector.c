// Vector split mode (width 2 in __enzyme_augmentfwd): exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: vector split mode
#include <enzyme/enzyme.h>
void f(double *x) { x[0] = x[0] * x[0]; }
int main(void) {
  double x = 2, d0 = 1, d1 = 1;
  void *t = __enzyme_augmentfwd((void *)f, enzyme_width, 2, enzyme_dup, &x, &d0, &d1); // error-here
  return t != 0;
}
