// Enzyme_tape last in the reverse sweep: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_tape
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) {
  void *t = __enzyme_augmentfwd((void *)f, 2.0);
  __enzyme_reverse((void *)f, 2.0, 1.0, enzyme_tape); // error-here
  return t != 0;
}
