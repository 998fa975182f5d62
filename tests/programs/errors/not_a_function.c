// EXPECT-ERROR: the first argument of __enzyme_fwddiff must be a function
// LEVELS: O0 O2
#include "check.h"
double f(double x) { return x * x; }
double g(double x) { return x + x; }
int main(int argc, char **argv) {
  (void)argv;
  double (*fp)(double) = argc > 3 ? f : g; /* only known at run time */
  return (int)__enzyme_fwddiff((void *)fp, 1.0, 1.0);
}
