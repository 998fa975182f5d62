// EXPECT-ERROR: no derivative known for external function 'fill_external'
// LEVELS: O0 O2
#include "check.h"
void fill_external(double *dst, double v);
double f(double x) {
  double buf[2];
  fill_external(buf, x);
  return buf[0] + buf[1];
}
int main(void) { return (int)__enzyme_fwddiff((void *)f, 1.0, 1.0); }
