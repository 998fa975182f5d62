// A pointer without a shadow selected with a duplicated one: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: has no shadow here but is mixed with active pointers
// LEVELS: O0
#include <enzyme/enzyme.h>
__attribute__((noinline)) double f(double *a, double *b, int c) {
  double *p = c ? a : b; // error-here
  return p[0] * p[0];
}
int main(void) {
  double a = 1, b = 2, da = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &a, &da, enzyme_const, &b, 1);
  return 0;
}
