// Reverse mode: float (4-byte) data moved by memcpy and grown by realloc:
// adjoints of copied bytes must be accumulated as floats.
#include "check.h"
#include <string.h>
float f(const float *x, int n) {
  float t[6];
  memcpy(t, x, n * sizeof(float));
  float *buf = (float *)malloc(2 * sizeof(float));
  int cap = 2;
  for (int i = 0; i < n; i++) {
    if (i == cap) {
      cap *= 2;
      buf = (float *)realloc(buf, cap * sizeof(float));
    }
    buf[i] = t[i] * t[i];
  }
  float s = 0;
  for (int i = 0; i < n; i++) s += buf[i] * (i + 1);
  free(buf);
  return s;
}
int main(void) {
  float x[5] = {0.5f, -1.25f, 2, 0.75f, 1.5f}, dx[5] = {0};
  __enzyme_autodiff((void *)f, x, dx, 5);
  for (int i = 0; i < 5; i++) CHECK("dx", dx[i], 2.0 * x[i] * (i + 1), 1e-5);
  CHECK_DONE();
}
