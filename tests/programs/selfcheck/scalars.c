// Self-check mode (-enzyme-check): correct derivatives of scalar functions
// (double and float, several active arguments, constant integers, a float
// result declared constant) report no mismatch: -enzyme-check-abort aborts
// at the first one. The results are still checked against finite
// differences (the check has no effect on them).
// FLAGS: -fplugin=%plugin -mllvm -enzyme-check -mllvm -enzyme-check-abort
#include "check.h"

static double f(double x, double y, int n) {
  double s = 0;
  for (int i = 1; i <= n; i++) s += sin(x * i) * exp(-y / i) + x * y * y;
  return s / n;
}
static float g(float x, float y) { return sqrtf(x * x + y * y) + logf(1 + x * x); }
static double h(double x) { return tanh(x) * cos(x) + pow(x, 3.5); }

typedef struct { double dx, dy; } d2;
typedef struct { float dx, dy; } f2;
extern d2 __enzyme_autodiff_d2(void *, ...);
extern f2 __enzyme_autodiff_f2(void *, ...);
extern float __enzyme_fwddiff_f(void *, ...);

int main(void) {
  double x = 0.7, y = 1.3;
  for (int rep = 0; rep < 3; rep++) {
    d2 d = __enzyme_autodiff_d2((void *)f, x, y, enzyme_const, 4);
    CHECK("df/dx", d.dx, FD(x, f(x, y, 4), 1e-6), 1e-6);
    CHECK("df/dy", d.dy, FD(y, f(x, y, 4), 1e-6), 1e-6);
    double t = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.5, enzyme_const, 4);
    CHECK("fwd f", t, d.dx + 0.5 * d.dy, 1e-9);
    x += 0.1;
  }
  float a = 0.8f, b = -1.7f;
  f2 e = __enzyme_autodiff_f2((void *)g, a, b);
  CHECK("dg/da", e.dx, a / sqrtf(a * a + b * b) + 2 * a / (1 + a * a), 1e-5);
  CHECK("dg/db", e.dy, b / sqrtf(a * a + b * b), 1e-5);
  float ft = __enzyme_fwddiff_f((void *)g, a, 1.0f, b, 0.0f);
  CHECK("fwd g", ft, e.dx, 1e-5);
  double z = 1.4;
  double dh = __enzyme_autodiff((void *)h, z);
  CHECK("dh", dh, FD(z, h(z), 1e-6), 1e-6);
  double th = __enzyme_fwddiff((void *)h, z, 2.0);
  CHECK("fwd h", th, 2 * dh, 1e-9);
  CHECK_DONE();
}
