// EXPECT-ERROR: the memory argument #2 of 'f' points to needs a shadow
// LEVELS: O0 O2
#include "check.h"
void f(double x, double *out) { *out = x * x; }
int main(void) {
  double o;
  __enzyme_fwddiff((void *)f, enzyme_dup, 1.0, 1.0, enzyme_const, &o);
  return 0;
}
