// All-float computation: float accumulators in a loop, float arrays.
#include "check.h"
float logistic_sum(const float *w, float x, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += 1.0f / (1.0f + expf(-w[i] * x));
  return s;
}
float __enzyme_fwddiff_ls(void *, int, const float *, float, float, int);
int main(void) {
  float w[3] = {0.5f, -1.0f, 2.0f};
  float x = 0.75f;
  float d = __enzyme_fwddiff_ls((void *)logistic_sum, enzyme_const, w, x, 1.0f, 3);
  double want = 0;
  for (int i = 0; i < 3; i++) { double s = 1 / (1 + exp(-w[i] * (double)x)); want += s * (1 - s) * w[i]; }
  CHECK("ds/dx", d, want, 1e-5);
  CHECK("ds/dx fd", d, FD(x, logistic_sum(w, x, 3), 1e-2), 1e-3);
  CHECK_DONE();
}
