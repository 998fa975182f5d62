// fmin / fmax (llvm.minnum / llvm.maxnum after optimization).
#include "check.h"
double f(double x, double y) { return fmax(x * x, y) - fmin(x, 2 * y); }
float g(float x, float y) { return fmaxf(x, y) * fminf(x, y); }
float __enzyme_fwddiff_g(void *, float, float, float, float);
int main(void) {
  double x = 1.5, y = 1.0;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  CHECK("dx (x^2>y, x<2y)", dx, 2 * x - 1, 1e-12);
  CHECK("dy", dy, 0.0, 1e-12);
  CHECK("dx fd", dx, FD(x, f(x, y), 1e-6), 1e-6);
  x = 0.5; y = 0.1;
  dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  CHECK("dx (x^2>y, x>2y)", dx, 2 * x, 1e-12);
  CHECK("dy", dy, -2.0, 1e-12);
  CHECK("dy fd", dy, FD(y, f(x, y), 1e-6), 1e-6);
  float a = 2.0f, b = 3.0f;
  float da = __enzyme_fwddiff_g((void *)g, a, 1.0f, b, 0.0f);
  float db = __enzyme_fwddiff_g((void *)g, a, 0.0f, b, 1.0f);
  CHECK("float da", da, 3.0, 1e-6);
  CHECK("float db", db, 2.0, 1e-6);
  CHECK_DONE();
}
