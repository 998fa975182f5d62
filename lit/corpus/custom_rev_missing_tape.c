// A custom reverse pass that does not take the tape the augmented pass returns: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: custom gradient for 'f'
#include <enzyme/enzyme.h>
typedef struct { void *tape; double r; } AR;
double f(double x) { return x * x; }
AR aug_f(double x) { AR a = {0, x * x}; return a; }
double rev_f(double x, double d) { return 2 * x * d; }
void *__enzyme_register_gradient_f[] = {(void *)f, (void *)aug_f, (void *)rev_f};
int main(void) { return (int)__enzyme_autodiff((void *)f, 2.0); } // error-here
