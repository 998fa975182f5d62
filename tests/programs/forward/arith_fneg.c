// fneg (unary minus) on double and float.
#include "check.h"
double f(double x) { return -(x * x) + -x; }
float g(float x) { return -x * 3.0f; }
float __enzyme_fwddiff_f(void *, float, float);
int main(void) {
  double x = 0.75;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("df/dx", d, -2 * x - 1, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  float xf = 2.0f;
  float dg = __enzyme_fwddiff_f((void *)g, xf, 1.0f);
  CHECK("dg/dx", dg, -3.0, 1e-6);
  CHECK("dg/dx fd", dg, FD(xf, g(xf), 1e-2), 1e-3);
  CHECK_DONE();
}
