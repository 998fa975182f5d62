// Enzyme_allocated gives a tape smaller than the derivative needs: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_allocated gives 1 bytes for the tape
#include <enzyme/enzyme.h>
double sin(double);
double f(double x) { return x * x * sin(x); }
int main(void) {
  char buf[1];
  __enzyme_augmentfwd((void *)f, enzyme_allocated, 1, enzyme_tape, buf, 2.0); // error-here
  return 0;
}
