// FLAGS: -fno-math-errno
// frem (fmod lowers to the instruction without errno): d/dx = 1, d/dy = -trunc(x/y).
#include "check.h"
double f(double x, double y) { return fmod(x * x, y); }
int main(void) {
  double x = 2.3, y = 1.1;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  CHECK("df/dx", dx, 2 * x, 1e-12);
  CHECK("df/dy", dy, -trunc(x * x / y), 1e-12);
  CHECK("df/dx fd", dx, FD(x, f(x, y), 1e-7), 1e-5);
  CHECK("df/dy fd", dy, FD(y, f(x, y), 1e-7), 1e-5);
  CHECK_DONE();
}
