// EXPECT-ERROR: enzyme_byref gives 4 bytes, but argument 2 (double) of 'g' has 8
// LEVELS: O0 O2
// enzyme_byref with a size that is not the parameter's: a compile error
// with the line.
#include "check.h"
extern int enzyme_byref;
static double g(double a, double b) { return a * b; }
int main(void) {
  double p = 1.0;
  double d = __enzyme_autodiff((void *)g, 2.0, enzyme_byref, 4, &p);
  printf("%g\n", d);
  return 0;
}
