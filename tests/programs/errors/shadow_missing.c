// EXPECT-ERROR: the shadow of argument 1 (ptr) of 'f' is missing: found the marker enzyme_const instead
// LEVELS: O0 O2
#include "check.h"
double f(double *x, double y) { return *x * y; }
int main(void) {
  double x = 1;
  return (int)__enzyme_fwddiff((void *)f, enzyme_dup, &x, enzyme_const, 2.0);
}
