// EXPECT-ERROR: cannot be differentiated here: it (or a function it calls) contains a differentiation call that needs this derivative first
// LEVELS: O0 O2
// A function that differentiates itself: its derivative would need itself.
#include "check.h"
double f(double x);
double g(double x) { return __enzyme_autodiff((void *)f, x) * x; }
double f(double x) { return g(x) + x * x; }
int main(void) { return (int)f(1.0); }
