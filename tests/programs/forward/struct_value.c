// Struct values: passed and returned by value between module functions
// (insertvalue/extractvalue after optimization, memory at -O0).
#include "check.h"
typedef struct { double re, im; } cplx;
typedef struct { double a; float b; double c[2]; } mixed;
__attribute__((noinline)) cplx cmul(cplx x, cplx y) { return (cplx){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re}; }
__attribute__((noinline)) mixed make(double x) { mixed m = {x, (float)(2 * x), {x * x, 1.0}}; return m; }
double f(double t) {
  cplx z = {cos(t), sin(t)};
  cplx w = cmul(z, z);           /* e^{2it} */
  cplx v = cmul(w, (cplx){t, 1.0});
  return v.re + 3 * v.im;
}
double g(double x) {
  mixed m = make(x);
  return m.a * m.b + m.c[0] * m.c[1];
}
int main(void) {
  double t = 0.4;
  double d = __enzyme_fwddiff((void *)f, t, 1.0);
  /* v = (cos2t + i sin2t)(t + i) -> re = t cos2t - sin2t, im = cos2t + t sin2t */
  double dre = cos(2 * t) - 2 * t * sin(2 * t) - 2 * cos(2 * t);
  double dim = -2 * sin(2 * t) + sin(2 * t) + 2 * t * cos(2 * t);
  CHECK("df/dt", d, dre + 3 * dim, 1e-12);
  CHECK("df/dt fd", d, FD(t, f(t), 1e-6), 1e-6);
  double x = 1.3;
  double dg = __enzyme_fwddiff((void *)g, x, 1.0);
  CHECK("dg/dx", dg, 4 * x + 2 * x, 1e-6);
  CHECK("dg/dx fd", dg, FD(x, g(x), 1e-2), 1e-4); /* the float field limits the step */
  CHECK_DONE();
}
