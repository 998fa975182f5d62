// EXPECT-ERROR: no derivative known for external function 'opaque_model'
// LEVELS: O0 O2
#include "check.h"
double opaque_model(double, double);
double f(double x, double y) { return opaque_model(x, y) + x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, enzyme_const, 2.0); }
