// EXPECT-ERROR: an indirect call (through a function pointer whose target is unknown) has active arguments
// LEVELS: O0 O2
#include "check.h"
typedef double (*fn)(double);
fn volatile table[2];
double f(double x, int k) { return table[k](x) * x; }
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.0, 0); }
