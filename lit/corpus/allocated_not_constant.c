// Enzyme_allocated followed by a run-time value: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: must be followed by an integer constant
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(int argc, char **argv) {
  char buf[64];
  __enzyme_augmentfwd((void *)f, enzyme_allocated, argc, enzyme_tape, buf, 2.0); // error-here
  return 0;
}
