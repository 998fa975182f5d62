// A custom reverse pass returning an int adjoint: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: custom gradient for 'f'
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
double aug_f(double x) { return x * x; }
int rev_f(double x, double d) { return 2 * x * d; }
void *__enzyme_register_gradient_f[] = {(void *)f, (void *)aug_f, (void *)rev_f};
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); } // error-here
