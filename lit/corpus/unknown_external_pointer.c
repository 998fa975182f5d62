// Reverse mode: an external function given active memory: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: no derivative known for external function 'fill'
#include <enzyme/enzyme.h>
void fill(double *);
double f(double *x) {
  fill(x); // error-here
  return x[0];
}
int main(void) {
  double x = 1, d = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &d);
  return 0;
}
