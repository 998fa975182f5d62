// The target is a local array: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: must be a function
#include <enzyme/enzyme.h>
int main(void) {
  double a[4] = {0};
  return (int)__enzyme_autodiff((void *)a, 1.0); // error-here
}
