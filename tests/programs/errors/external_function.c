// EXPECT-ERROR: no derivative known for external function 'mystery'
// LEVELS: O0 O2
#include "check.h"
double mystery(double);
double f(double x) { return mystery(x) * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0); }
