// Reverse: single-precision versions: float array reduction with sinf,
// expf, sqrtf, fmaxf, and a float enzyme_out scalar.
#include "check.h"
float __enzyme_autodiff_f(void *, ...);
__attribute__((noinline)) float fsum(const float *x, int n, float a) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += sinf(a * x[i]) + sqrtf(x[i] * x[i] + 1.0f) * expf(-a) + fmaxf(x[i], 0.0f);
  return s;
}
int main(void) {
  float x[4] = {0.5f, -1.25f, 2.0f, 0.75f}, dx[4] = {0};
  float a = 0.8f;
  float da = __enzyme_autodiff_f((void *)fsum, enzyme_dup, x, dx, enzyme_const, 4, enzyme_out, a);
  double wa = 0;
  for (int i = 0; i < 4; i++) {
    double v = x[i];
    wa += v * cos(a * v) - sqrt(v * v + 1) * exp(-a);
    double w = a * cos(a * v) + v / sqrt(v * v + 1) * exp(-a) + (v > 0);
    CHECK("dx", dx[i], w, 1e-5);
  }
  CHECK("da", da, wa, 1e-5);
  CHECK_DONE();
}
