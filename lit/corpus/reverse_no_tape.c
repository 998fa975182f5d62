// The reverse sweep without a tape: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: needs the tape from __enzyme_augmentfwd
#include <enzyme/enzyme.h>
void f(double *x) { x[0] = x[0] * x[0]; }
int main(void) {
  double x = 2, dx = 1;
  __enzyme_reverse((void *)f, enzyme_dup, &x, &dx); // error-here
  return 0;
}
