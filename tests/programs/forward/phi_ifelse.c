// if/else producing phis (at -O0 through memory, optimized as phis).
#include "check.h"
double f(double x, double y) {
  double r;
  if (x * y > 1.0) {
    r = sin(x) * y;
  } else if (x < 0) {
    r = x * x * x;
  } else {
    r = y / x;
  }
  return r * 2.0;
}
static void check_at(double x, double y) {
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  double ax, ay;
  if (x * y > 1.0) { ax = 2 * cos(x) * y; ay = 2 * sin(x); }
  else if (x < 0) { ax = 6 * x * x; ay = 0; }
  else { ax = -2 * y / (x * x); ay = 2 / x; }
  CHECK("df/dx", dx, ax, 1e-12);
  CHECK("df/dy", dy, ay, 1e-12);
  CHECK("df/dx fd", dx, FD(x, f(x, y), 1e-7), 1e-5);
  CHECK("df/dy fd", dy, FD(y, f(x, y), 1e-7), 1e-5);
}
int main(void) {
  check_at(2.0, 1.5);
  check_at(-0.7, 0.5);
  check_at(0.5, 0.5);
  CHECK_DONE();
}
