// An active value stored through a pointer made from an integer: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: inttoptr
#include <enzyme/enzyme.h>
#include <stdint.h>
void f(uintptr_t a, double x) { *(double *)a = x * x; } // error-here
int main(void) {
  double o;
  __enzyme_autodiff((void *)f, (uintptr_t)&o, 2.0);
  return 0;
}
