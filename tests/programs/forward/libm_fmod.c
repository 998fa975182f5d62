// fmod as a libm call (math-errno on, the default): same derivative as frem.
#include "check.h"
double f(double x, double y) { return fmod(3.0 * x, y); }
float g(float x, float y) { return fmodf(x, y); }
float __enzyme_fwddiff_ff(void *, float, float, float, float);
int main(void) {
  double x = 2.3, y = 1.1;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  CHECK("df/dx", dx, 3.0, 1e-12);
  CHECK("df/dy", dy, -trunc(3 * x / y), 1e-12);
  CHECK("df/dx fd", dx, FD(x, f(x, y), 1e-7), 1e-5);
  CHECK("df/dy fd", dy, FD(y, f(x, y), 1e-7), 1e-5);
  float gx = 5.5f, gy = 2.0f;
  float dgx = __enzyme_fwddiff_ff((void *)g, gx, 1.0f, gy, 0.0f);
  float dgy = __enzyme_fwddiff_ff((void *)g, gx, 0.0f, gy, 1.0f);
  CHECK("dg/dx float", dgx, 1.0, 1e-6);
  CHECK("dg/dy float", dgy, -2.0, 1e-6);
  CHECK("dg/dy float fd", dgy, FD(gy, g(gx, gy), 1e-3), 1e-3);
  CHECK_DONE();
}
