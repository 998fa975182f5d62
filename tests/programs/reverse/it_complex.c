// Reverse: C99 complex arithmetic (at -O0 clang calls __muldc3/__divdc3
// for complex * and /), creal/cimag/cabs/cexp on values built from
// active doubles.
#include "check.h"
#include <complex.h>
double f(double a, double b, double c) {
  double complex z = a + b * I, w = c - 0.5 * a * I;
  double complex p = z * w, q = z / (w + 2.0);
  double complex e = cexp(0.3 * z);
  return creal(p) * cimag(q) + cabs(p) + creal(e);
}
float ff(float a, float b) {
  float complex z = a + b * I, w = b - a * I;
  float complex q = z / (w + 1.5f) * z;
  return crealf(q) + cimagf(q);
}
long double fl(long double a, long double b) {
  long double complex z = a + b * I, w = 2 * b - a * I;
  long double complex q = z * w / (z + 3.0L);
  return creall(q) * cimagl(q);
}
/* huge magnitudes: compiler-rt scales the division by a power of two */
double fbig(double a) {
  double complex z = a * 1e200 + 3e200 * I, w = 2e200 - a * 1e200 * I;
  return creal(z / w) + cimag(z / w);
}
typedef struct { double a, b, c; } D3;
typedef struct { float a, b; } F2;
typedef struct { long double a, b; } L2;
F2 __enzyme_autodiff_ff(void *, float, float);
L2 __enzyme_autodiff_fl(void *, long double, long double);
D3 __enzyme_autodiff_c(void *, double, double, double);
int main(void) {
  double a = 0.7, b = -0.4, c = 1.3;
  D3 d = __enzyme_autodiff_c((void *)f, a, b, c);
  CHECK("da fd", d.a, FD(a, f(a, b, c), 1e-6), 1e-6);
  CHECK("db fd", d.b, FD(b, f(a, b, c), 1e-6), 1e-6);
  CHECK("dc fd", d.c, FD(c, f(a, b, c), 1e-6), 1e-6);
  F2 e = __enzyme_autodiff_ff((void *)ff, (float)a, (float)b);
  double ad = (float)a, bd = (float)b;
  CHECK("float da fd", e.a, FD(ad, ff((float)ad, (float)bd), 1e-3), 1e-3);
  CHECK("float db fd", e.b, FD(bd, ff((float)ad, (float)bd), 1e-3), 1e-3);
  L2 l = __enzyme_autodiff_fl((void *)fl, a, b);
  CHECK("ld da fd", (double)l.a, FD(a, (double)fl(a, b), 1e-6), 1e-6);
  CHECK("ld db fd", (double)l.b, FD(b, (double)fl(a, b), 1e-6), 1e-6);
  CHECK("big", __enzyme_autodiff((void *)fbig, a), FD(a, fbig(a), 1e-6), 1e-6);
  CHECK("fwd", __enzyme_fwddiff((void *)f, a, 1.0, b, 0.0, c, 0.0), d.a, 1e-12);
  CHECK_DONE();
}
