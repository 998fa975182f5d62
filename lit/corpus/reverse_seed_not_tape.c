// The reverse sweep given a double where the tape belongs: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: needs the tape from __enzyme_augmentfwd
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) {
  void *t = __enzyme_augmentfwd((void *)f, 2.0);
  __enzyme_reverse((void *)f, 2.0, 1.0, 5.0); // error-here
  return t != 0;
}
