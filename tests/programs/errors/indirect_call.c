// EXPECT-ERROR: indirect call
// LEVELS: O0 O2
#include "check.h"
double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }
double (*volatile table[2])(double) = {sq, cube};
double f(double x, int k) { return table[k](x); }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0, 1); }
