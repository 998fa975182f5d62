// EXPECT-ERROR: marker enzyme_const has no argument after it
// LEVELS: O0 O2
#include "check.h"
double f(double x, double y) { return x * y; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, enzyme_dup, 1.0, 1.0, enzyme_const); }
