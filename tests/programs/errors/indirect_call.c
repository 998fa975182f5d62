// EXPECT-ERROR: an indirect call (through a function pointer whose target is unknown) has active arguments
// LEVELS: O0 O2
// No function of the pointer's type is defined here (the target comes from
// another module): forward mode cannot differentiate the call.
#include "check.h"
typedef double (*fn)(double, double);
fn lookup(int k);
double f(double x, int k) { return lookup(k)(x, x); }
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0, 1); }
