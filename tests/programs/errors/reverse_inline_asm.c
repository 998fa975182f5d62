// EXPECT-ERROR: inline assembly with active arguments cannot be differentiated
// LEVELS: O0 O2
#include "check.h"
double f(double x) {
  double y;
  __asm__("movsd %1, %0" : "=x"(y) : "x"(x));
  return y * x;
}
int main(void) { return (int)__enzyme_autodiff((void *)f, 1.5); }
