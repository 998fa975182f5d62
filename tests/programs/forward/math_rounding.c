// floor, ceil, trunc, round: zero derivative (away from the jumps).
#include "check.h"
double f(double x) { return floor(x) * x + ceil(x) + trunc(2 * x) * x + round(x * 3) + x; }
float g(float x) { return floorf(x) + ceilf(x) * x + truncf(x) + roundf(x); }
float __enzyme_fwddiff_g(void *, float, float);
int main(void) {
  double x = 2.3;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("df/dx", d, floor(x) + trunc(2 * x) + 1, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  x = -1.7;
  d = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("df/dx neg", d, floor(x) + trunc(2 * x) + 1, 1e-12);
  CHECK("df/dx neg fd", d, FD(x, f(x), 1e-6), 1e-6);
  float dg = __enzyme_fwddiff_g((void *)g, 1.25f, 1.0f);
  CHECK("dg/dx", dg, 2.0, 1e-6);
  CHECK_DONE();
}
