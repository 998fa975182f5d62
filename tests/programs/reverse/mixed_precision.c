// Reverse mode: float <-> double conversions and int -> float conversions.
#include "check.h"
double f(double x, const float *w, int n) {
  float acc = 0;
  for (int i = 0; i < n; i++) acc += w[i] * (float)x * (float)i;
  double r = (double)acc * x + (double)n * x;
  return r;
}
int main(void) {
  float w[3] = {1.5f, -0.5f, 2.0f}, dw[3] = {0};
  double x = 0.75;
  double dx = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_dup, w, dw, enzyme_const, 3);
  double sw = 0;
  for (int i = 0; i < 3; i++) sw += w[i] * i;
  CHECK("dx", dx, 2 * sw * x + 3, 1e-5);
  for (int i = 0; i < 3; i++) CHECK("dw", dw[i], x * i * x, 1e-5);
  CHECK_DONE();
}
