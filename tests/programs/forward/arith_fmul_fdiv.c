// fmul and fdiv: product and quotient rules.
#include "check.h"
double f(double x, double y) { return x * y * x / (y + 3.0) + 1.0 / x; }
int main(void) {
  double x = 1.7, y = 0.4;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  double ax = 2 * x * y / (y + 3.0) - 1.0 / (x * x);
  double ay = x * x * 3.0 / ((y + 3.0) * (y + 3.0));
  CHECK("df/dx", dx, ax, 1e-12);
  CHECK("df/dy", dy, ay, 1e-12);
  CHECK("df/dx fd", dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK("df/dy fd", dy, FD(y, f(x, y), 1e-6), 1e-6);
  CHECK_DONE();
}
