// Reverse: the classic fast inverse square root. The initial guess comes
// from integer operations on the float's bits and carries no derivative;
// the derivative flows through the two Newton steps only (as in Enzyme).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
float __enzyme_autodiff(void *, float);
float q_rsqrt(float x) {
  float half = 0.5f * x, y = x;
  int32_t i;
  memcpy(&i, &y, sizeof i);
  i = 0x5f3759df - (i >> 1);
  memcpy(&y, &i, sizeof y);
  y = y * (1.5f - half * y * y);
  y = y * (1.5f - half * y * y);
  return y;
}
int main(void) {
  float x = 2.5f;
  float d = __enzyme_autodiff((void *)q_rsqrt, x);
  /* y0 constant (from the bits): y1 = y0 (1.5 - x/2 y0^2), y2 = y1 (1.5 - x/2 y1^2) */
  float y0;
  int32_t i;
  memcpy(&i, &x, sizeof i);
  i = 0x5f3759df - (i >> 1);
  memcpy(&y0, &i, sizeof y0);
  double Y0 = y0, X = x;
  double y1 = Y0 * (1.5 - 0.5 * X * Y0 * Y0), dy1 = -0.5 * Y0 * Y0 * Y0;
  double dy2 = dy1 * (1.5 - 0.5 * X * y1 * y1) + y1 * (-0.5 * y1 * y1 - X * y1 * dy1);
  double exact = -0.5 * pow(X, -1.5);
  printf("d = %.9g want %.9g (true %.9g)\n", d, dy2, exact);
  if (fabs(d - dy2) > 1e-5 * fabs(dy2)) return 1;
  if (fabs(d - exact) > 1e-2 * fabs(exact)) return 2;
  return 0;
}
