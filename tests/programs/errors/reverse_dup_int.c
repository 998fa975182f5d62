// EXPECT-ERROR: cannot be enzyme_dup: an integer carries no derivative
// LEVELS: O0 O2
#include "check.h"
double f(double x, int n) { return x * n; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.5, enzyme_dup, 3, 4); }
