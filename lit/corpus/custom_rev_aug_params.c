// A custom augmented forward pass with the wrong parameters: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: custom gradient for 'f'
#include <enzyme/enzyme.h>
void f(double *x) { x[0] *= x[0]; }
void *aug_f(int n) { return 0; }
void rev_f(double *x, double *dx, void *tape) { dx[0] *= 2 * x[0]; }
void *__enzyme_register_gradient_f[] = {(void *)f, (void *)aug_f, (void *)rev_f};
int main(void) {
  double x = 2, dx = 1;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx); // error-here
  return 0;
}
