// EXPECT-ERROR: too few arguments to __enzyme_fwddiff: 'f' takes 2 parameters
// LEVELS: O0 O2
#include "check.h"
double f(double x, double y) { return x * y; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0); }
