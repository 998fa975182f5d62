// sinh, cosh, tanh (and their float versions).
#include "check.h"
double f_sinh(double x) { return sinh(x); }
double f_cosh(double x) { return cosh(2 * x); }
double f_tanh(double x) { return tanh(x) * x; }
float f_tanhf(float x) { return tanhf(x); }
float __enzyme_fwddiff_f(void *, float, float);
#define T CHECK_FWD1
int main(void) {
  double x = 0.65;
  T(f_sinh, x, cosh(x));
  T(f_cosh, x, 2 * sinh(2 * x));
  T(f_tanh, x, (1 - tanh(x) * tanh(x)) * x + tanh(x));
  float xf = 0.65f;
  float d = __enzyme_fwddiff_f((void *)f_tanhf, xf, 1.0f);
  CHECK("tanhf", d, 1 - tanh(0.65) * tanh(0.65), 1e-6);
  CHECK("tanhf fd", d, FD(xf, f_tanhf(xf), 1e-2), 1e-3);
  CHECK_DONE();
}
