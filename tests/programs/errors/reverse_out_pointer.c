// EXPECT-ERROR: cannot be enzyme_out: only floating-point scalars
// LEVELS: O0 O2
#include "check.h"
double f(double *x) { return *x * *x; }
int main(void) {
  double x = 2;
  return (int)__enzyme_autodiff((void *)f, enzyme_out, &x);
}
