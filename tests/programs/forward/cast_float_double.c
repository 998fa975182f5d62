// fpext and fptrunc: float <-> double conversions carry the tangent.
#include "check.h"
float narrow(double x) { float a = (float)(x * x); return a * 2.0f; }
double widen(float x) { double a = x; return a * a * a; }
double mixed(double x) { float h = (float)x; double b = h; return b * x; }
float __enzyme_fwddiff_nf(void *, double, double);
double __enzyme_fwddiff_wd(void *, float, float);
int main(void) {
  double x = 1.5;
  float dn = __enzyme_fwddiff_nf((void *)narrow, x, 1.0);
  CHECK("narrow", dn, 4 * x, 1e-6);
  CHECK("narrow fd", dn, FD(x, narrow(x), 1e-3), 1e-3);
  float xf = 0.5f;
  double dw = __enzyme_fwddiff_wd((void *)widen, xf, 1.0f);
  CHECK("widen", dw, 3.0 * 0.25, 1e-7);
  CHECK("widen fd", dw, FD(xf, widen(xf), 1e-3), 1e-3);
  double dm = __enzyme_fwddiff((void *)mixed, x, 1.0);
  CHECK("mixed", dm, 2 * x, 1e-7);
  CHECK("mixed fd", dm, FD(x, mixed(x), 1e-4), 1e-4);
  CHECK_DONE();
}
