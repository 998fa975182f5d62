// Reverse: constant global parameters and a global table read inside the
// function, and a static local call counter (integer state, inactive).
#include "check.h"
double g_scale = 1.5;
const double g_coef[4] = {0.5, -1.0, 2.0, 0.25};
int g_calls;
__attribute__((noinline)) double poly(double x) {
  static int calls = 0;
  calls++;
  g_calls = calls;
  double s = 0, p = 1;
  for (int i = 0; i < 4; i++) {
    s += g_coef[i] * p;
    p *= x;
  }
  return g_scale * s;
}
double f(double x, double y) { return poly(x) * poly(y) + poly(x * y); }
typedef struct { double dx, dy; } D2;
D2 __enzyme_autodiff_f(void *, double, double);
int main(void) {
  double x = 0.8, y = -1.1;
  D2 d = __enzyme_autodiff_f((void *)f, x, y);
  CHECK("dx fd", d.dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK("dy fd", d.dy, FD(y, f(x, y), 1e-6), 1e-6);
  /* dpoly = 1.5 (-1 + 4x + 0.75x^2) */
#define DP(t) (1.5 * (-1 + 4 * (t) + 0.75 * (t) * (t)))
  CHECK("dx", d.dx, DP(x) * poly(y) + DP(x * y) * y, 1e-12);
  CHECK("dy", d.dy, poly(x) * DP(y) + DP(x * y) * x, 1e-12);
  if (g_calls < 3) { printf("static counter not advanced: %d\n", g_calls); return 1; }
  CHECK_DONE();
}
