// A custom gradient whose reverse function has the wrong signature is an
// error naming the function and its reverse function.
// EXPECT-ERROR: custom gradient for 'h' (double (double)) does not fit: the reverse function 'h_rev'
#include "check.h"
double h(double x) { return x * x; }
static double h_aug(double x) { return x * x; }
static double h_rev(double x, double dret, void *tape) { return 2 * x * dret; }
void *__enzyme_register_gradient_h[] = {(void *)h, (void *)h_aug, (void *)h_rev};
int main(void) { return (int)__enzyme_autodiff((void *)h, 1.0); }
