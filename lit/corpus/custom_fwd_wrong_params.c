// A custom forward derivative missing the tangent parameter: exactly one error, at the marked line.
// RUN: python3 %S/check.py %plugin %include %s
// EXPECT: custom forward derivative 'df' registered for 'f' has the wrong signature
#include <enzyme/enzyme.h>
double f(double x) { return x * x; }
double df(double x) { return 2 * x; }
void *__enzyme_register_derivative_f[] = {(void *)f, (void *)df};
double g(double x) { return f(x) + x; }
int main(void) { return (int)__enzyme_fwddiff((void *)g, 2.0, 1.0); } // error-here
