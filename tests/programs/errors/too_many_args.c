// EXPECT-ERROR: too many arguments to __enzyme_fwddiff: 'f' takes 1 parameters
// LEVELS: O0 O2
#include "check.h"
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0, 2.0); }
