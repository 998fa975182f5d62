// Enzyme_tape in combined reverse mode: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: enzyme_tape is a split-mode marker
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
int main(void) {
  char t[8];
  return (int)__enzyme_autodiff((void *)f, 1.0, enzyme_tape, t); // error-here
}
