// Reverse mode: the function to differentiate given through a constant
// function-pointer global.
#include "check.h"
static double sq(double x) { return x * x * sin(x); }
static double (*const target)(double) = sq;
int main(void) {
  double x = 0.9;
  double d = __enzyme_autodiff((void *)target, x);
  CHECK("dtarget", d, 2 * x * sin(x) + x * x * cos(x), 1e-12);
  CHECK_DONE();
}
