// A custom forward derivative returning float for a double function: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: has the wrong signature
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
float df(double x, double dx) { return 2 * x * dx; }
void *__enzyme_register_derivative_f[] = {(void *)f, (void *)df};
int main(void) { return (int)__enzyme_fwddiff((void *)f, 2.0, 1.0); } // error-here
