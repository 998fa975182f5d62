// select (conditional expressions): the tangent follows the chosen operand.
#include "check.h"
__attribute__((noinline)) double pick(double x, double y) { return x > y ? x * x : 3.0 * y; }
double relu(double x) { return x > 0 ? x : 0.0; }
double f(double x, double y) { return pick(x, y) + relu(x - 1.0) + relu(-x); }
int main(void) {
  double x = 2.0, y = 1.0;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  CHECK("df/dx (x>y)", dx, 2 * x + 1, 1e-12);
  CHECK("df/dy (x>y)", dy, 0.0, 1e-12);
  CHECK("df/dx fd", dx, FD(x, f(x, y), 1e-6), 1e-6);
  x = 0.5;
  dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  CHECK("df/dx (x<y)", dx, 0.0, 1e-12);
  CHECK("df/dy (x<y)", dy, 3.0, 1e-12);
  CHECK("df/dy fd", dy, FD(y, f(x, y), 1e-6), 1e-6);
  double r = __enzyme_fwddiff((void *)relu, -2.0, 1.0);
  CHECK("relu'(-2)", r, 0.0, 0);
  CHECK_DONE();
}
