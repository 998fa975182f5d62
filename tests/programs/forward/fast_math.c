// FLAGS: -ffast-math
// -ffast-math lets the optimizer rewrite libm calls (sqrt/pow/exp/log
// folds, reassociation, reciprocal tricks) before differentiation.
#include "check.h"
double f(double x, double y) {
  return sqrt(x) * pow(x, 3.0) + pow(y, 0.5) + exp(log(x) * 2) + 1.0 / sqrt(x + y) + fmax(x, y) + x / y + exp2(x);
}
float g(float x) { return sqrtf(x) / x + x * x * x * x; }
float __enzyme_fwddiff_g(void *, float, float);
int main(void) {
  double x = 1.3, y = 0.7;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  double ax = 3.5 * pow(x, 2.5) + 2 * x - 0.5 * pow(x + y, -1.5) + 1 + 1 / y + exp2(x) * log(2.0);
  double ay = 0.5 / sqrt(y) - 0.5 * pow(x + y, -1.5) - x / (y * y);
  CHECK("dx", dx, ax, 1e-10);
  CHECK("dy", dy, ay, 1e-10);
  CHECK("dx fd", dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK("dy fd", dy, FD(y, f(x, y), 1e-6), 1e-6);
  float dg = __enzyme_fwddiff_g((void *)g, 0.5f, 1.0f);
  CHECK("dg", dg, -0.5 * pow(0.5, -1.5) + 4 * 0.125, 1e-5);
  CHECK_DONE();
}
