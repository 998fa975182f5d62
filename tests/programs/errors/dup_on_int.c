// EXPECT-ERROR: argument 2 (i32) of 'f' cannot be enzyme_dup: an integer carries no derivative
// LEVELS: O0 O2
#include "check.h"
double f(double x, int n) { return x * n; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0, enzyme_dup, 3, 1); }
