// Default activities with no markers: floats are (value, tangent),
// integers are constant, pointers are (pointer, shadow).
#include "check.h"
double f(double x, int n, double *v, float s) {
  double r = 0;
  for (int i = 0; i < n; i++) r += v[i] * x;
  return r * s;
}
int main(void) {
  double x = 1.5, v[3] = {1, 2, 3}, dv[3] = {0, 1, 0};
  float s = 2.0f;
  double d = __enzyme_fwddiff((void *)f, x, 0.5, 3, v, dv, s, 0.0f);
  /* 0.5 * dx + dv1 */
  CHECK("directional", d, s * (0.5 * 6 + x), 1e-12);
  d = __enzyme_fwddiff((void *)f, x, 0.0, 3, v, dv, s, 1.0f);
  CHECK("d/ds", d, 6 * x + s * x, 1e-12); /* dv still seeds v[1] */
  dv[1] = 0;
  d = __enzyme_fwddiff((void *)f, x, 1.0, 3, v, dv, s, 0.0f);
  CHECK("d/dx", d, 12.0, 1e-12);
  CHECK("d/dx fd", d, FD(x, f(x, 3, v, s), 1e-6), 1e-6);
  CHECK_DONE();
}
