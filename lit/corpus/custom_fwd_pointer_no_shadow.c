// A custom forward derivative of a pointer function without the shadow parameter: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: has the wrong signature
#include <enzyme/enzyme.h>
void f(double *x) { x[0] *= x[0]; }
void df(double *x) { x[0] *= x[0]; }
void *__enzyme_register_derivative_f[] = {(void *)f, (void *)df};
int main(void) {
  double x = 2, dx = 1;
  __enzyme_fwddiff((void *)f, enzyme_dup, &x, &dx); // error-here
  return 0;
}
