// EXPECT-ERROR: enzyme_out is a reverse-mode marker
// LEVELS: O0 O2
#include "check.h"
double f(double x) { return x * x; }
int main(void) { return (int)__enzyme_fwddiff((void *)f, enzyme_out, 1.0); }
