// EXPECT-ERROR: value i32 3 does not fit argument 2 (ptr) of 'two'
// LEVELS: O0 O2
// An int where the function takes a pointer (a shadow or an argument is
// missing): an error, not a conversion.
#include "check.h"
double two(double *x, double *y) { return *x * *y; }
int main(void) {
  double a = 1, da = 0;
  return (int)__enzyme_autodiff((void *)two, &a, &da, 3);
}
