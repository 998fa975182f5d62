// C99 _Complex arithmetic (clang emits __muldc3/__divdc3/__mulsc3/__divsc3
// calls and cabs/cexp/clog/carg): reverse and forward derivatives of real
// functions of complex intermediates, in double and float.
#include "check.h"
#include <complex.h>

double f(double re, double im) {
  double _Complex z = re + im * I;
  double _Complex w = z * z / (z + 2.0) + cexp(z) * (1.0 - 0.5 * I);
  return cabs(w) + carg(w) + creal(clog(z * conj(z) + 1.0));
}

float g(float re, float im) {
  float _Complex z = re + im * I;
  float _Complex w = (z * z + 1.0f) / (z - 3.0f);
  return cabsf(w) + cimagf(cexpf(w)) + crealf(clogf(w));
}

typedef struct { double dre, dim; } d2;
typedef struct { float dre, dim; } f2;
d2 __enzyme_autodiff_d2(void *, ...);
f2 __enzyme_autodiff_f2(void *, ...);

int main(void) {
  double re = 0.7, im = -0.4;
  d2 r = __enzyme_autodiff_d2((void *)f, enzyme_out, re, enzyme_out, im);
  CHECK("f/dre", r.dre, FD(re, f(re, im), 1e-6), 1e-6);
  CHECK("f/dim", r.dim, FD(im, f(re, im), 1e-6), 1e-6);
  CHECK("fwd f/dre", __enzyme_fwddiff((void *)f, re, 1.0, im, 0.0), r.dre, 1e-10);
  CHECK("fwd f/dim", __enzyme_fwddiff((void *)f, re, 0.0, im, 1.0), r.dim, 1e-10);
  float fr = 0.6f, fi = 0.9f;
  f2 s = __enzyme_autodiff_f2((void *)g, enzyme_out, fr, enzyme_out, fi);
  double dre = FD(fr, g(fr, fi), 1e-3f), dim = FD(fi, g(fr, fi), 1e-3f);
  CHECK("g/dre", s.dre, dre, 2e-2);
  CHECK("g/dim", s.dim, dim, 2e-2);
  CHECK_DONE();
}
