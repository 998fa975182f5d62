// EXPECT-ERROR: the marked loop leaves to 2 different places (break, return); a fixed-point loop must leave to one
// LEVELS: O0 O2
// A loop marked with __enzyme_set_fixed_point that leaves by a return as
// well as by its test cannot be one step of a fixed point: a clear error.
#include "check.h"
#include <enzyme/fixed_point.h>
static double f(const double *p) {
  double x = 0;
  for (int i = 0; i < 100; i++) {
    __enzyme_set_fixed_point(-1.0, -1, 0, &x, sizeof(x));
    x = 0.5 * sin(x) + p[0];
    if (x > 10) return -1;
  }
  return x * x;
}
int main(void) {
  double p = 0.3, dp = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &p, &dp);
  printf("%g\n", dp);
  return 0;
}
