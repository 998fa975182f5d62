// <2 x double> vectors: arithmetic, insertelement, extractelement,
// shufflevector.
#include "check.h"
typedef double v2 __attribute__((vector_size(16)));
typedef float v4f __attribute__((vector_size(16)));
__attribute__((noinline)) v2 vmul(v2 a, v2 b) { return a * b; }
double f(double x, double y) {
  v2 a = {x, y};                                   /* insertelement */
  v2 b = __builtin_shufflevector(a, a, 1, 0);      /* {y, x} */
  v2 c = vmul(a, b) + a / (v2){2.0, 4.0};          /* {xy + x/2, xy + y/4} */
  c[1] = c[1] * x;                                 /* insert/extract */
  v2 d = __builtin_shufflevector(c, b, 0, 3);      /* {c0, x} */
  return d[0] + d[1] * c[1] - (-c)[0];
}
float g(float x) {
  v4f v = {x, 2 * x, x * x, 1.0f};
  v4f w = __builtin_shufflevector(v, v, 3, 2, 1, 0);
  v4f p = v * w;
  return p[0] + p[1] + p[2] + p[3];
}
float __enzyme_fwddiff_g(void *, float, float);
int main(void) {
  double x = 1.5, y = -0.5;
  double dx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  /* f = 2*(xy + x/2) + x*x*(xy + y/4) */
  CHECK("df/dx", dx, 2 * (y + 0.5) + 2 * x * (x * y + y / 4) + x * x * y, 1e-12);
  CHECK("df/dy", dy, 2 * x + x * x * (x + 0.25), 1e-12);
  CHECK("df/dx fd", dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK("df/dy fd", dy, FD(y, f(x, y), 1e-6), 1e-6);
  float xf = 0.75f;
  float dg = __enzyme_fwddiff_g((void *)g, xf, 1.0f);
  /* p = {x, 2x^3, 2x^3, x} -> 2x + 4x^3 */
  CHECK("dg/dx", dg, 2 + 12 * 0.75 * 0.75, 1e-5);
  CHECK("dg/dx fd", dg, FD(xf, g(xf), 1e-2), 1e-2);
  CHECK_DONE();
}
