// Reverse mode: float (not double) arithmetic, math calls, arrays.
#include "check.h"
typedef struct { float a, b; } F2;
float __enzyme_autodifff(void *, ...);
F2 __enzyme_autodiff_f2(void *, ...);
float f(float x) { return sinf(x) * x + expf(0.5f * x) + sqrtf(x); }
float g(float x, float y) { return powf(x, y) + x * y; }
float h(const float *v, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i] * tanhf(v[i]);
  return s;
}
int main(void) {
  float x = 1.3f;
  float d = __enzyme_autodifff((void *)f, x);
  CHECK("f", d, sin(x) + x * cos(x) + 0.5 * exp(0.5 * x) + 0.5 / sqrt(x), 1e-5);
  F2 r = __enzyme_autodiff_f2((void *)g, 1.5f, 2.0f);
  CHECK("g dx", r.a, 2 * 1.5 + 2.0, 1e-5);
  CHECK("g dy", r.b, pow(1.5, 2) * log(1.5) + 1.5, 1e-5);
  float v[3] = {0.5f, -1, 2}, dv[3] = {0};
  __enzyme_autodiff((void *)h, v, dv, 3);
  for (int i = 0; i < 3; i++) {
    double t = tanh(v[i]);
    CHECK("h dv", dv[i], 2 * v[i] * t + v[i] * v[i] * (1 - t * t), 1e-5);
  }
  CHECK_DONE();
}
