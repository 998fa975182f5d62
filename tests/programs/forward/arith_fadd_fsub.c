// fadd and fsub with both operands active, one active, and constants.
#include "check.h"
double f(double x, double y) { return (x + y) - (2.5 - x) + (y - 3.0 * y); }
int main(void) {
  double x = 1.25, y = -0.5;
  double dx = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_dup, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, enzyme_dup, x, 0.0, enzyme_dup, y, 1.0);
  double dboth = __enzyme_fwddiff((void *)f, enzyme_dup, x, 2.0, enzyme_dup, y, -1.0);
  double dconst = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, y);
  CHECK("df/dx", dx, 2.0, 1e-12);
  CHECK("df/dy", dy, -1.0, 1e-12);
  CHECK("directional", dboth, 2.0 * 2.0 + 1.0, 1e-12);
  CHECK("df/dx (y const)", dconst, 2.0, 1e-12);
  CHECK("df/dx fd", dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK("df/dy fd", dy, FD(y, f(x, y), 1e-6), 1e-6);
  CHECK_DONE();
}
