// Loads and stores through duplicated pointers: the shadow memory carries
// the tangents in and out.
#include "check.h"
void f(double *x, double *y) {
  double a = *x;
  *y = a * a;
  *x = sin(a) + *y;
}
int main(void) {
  double x = 0.6, y = 0, dx = 1.0, dy = 123.0;
  __enzyme_fwddiff((void *)f, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy);
  CHECK("primal x", x, sin(0.6) + 0.36, 1e-12);
  CHECK("primal y", y, 0.36, 1e-12);
  CHECK("dy", dy, 2 * 0.6, 1e-12);
  CHECK("dx", dx, cos(0.6) + 2 * 0.6, 1e-12);
  double x0 = 0.6, yy = 0;
  double fdx = FD(x0, ({ double t = x0; f(&t, &yy); t; }), 1e-6);
  CHECK("dx fd", dx, fdx, 1e-6);
  CHECK_DONE();
}
