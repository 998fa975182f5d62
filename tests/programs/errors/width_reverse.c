// enzyme_width with __enzyme_autodiff (vector reverse mode) is not
// implemented: a clear compile error.
// EXPECT-ERROR: vector reverse mode (enzyme_width > 1) is not implemented
#include "check.h"
void f(double *x) { x[0] *= x[0]; }
int main(void) {
  double x = 1, d0 = 1, d1 = 1;
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, &x, &d0, &d1);
  return 0;
}
