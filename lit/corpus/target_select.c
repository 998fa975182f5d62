// The target is chosen at run time: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: must be a function
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
double g(double x) { return x; }
int main(int argc, char **argv) {
  return (int)__enzyme_fwddiff(argc > 1 ? (void *)f : (void *)g, 1.0, 1.0); // error-here
}
