// Enzyme_width followed by a run-time value: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: must be followed by an integer constant
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(int argc, char **argv) {
  double r = __enzyme_fwddiff((void *)f, enzyme_width, argc, 1.0, 1.0); // error-here
  return (int)r;
}
