// Reverse and forward: the function stores active intermediates into a
// global scalar and a global array (constant and computed indices, the
// constant ones folded into `getelementptr (@g, 0, k)` expressions at
// -O1+), directly and through a noinline callee, and reads them back.
// Forward and reverse derivatives of the same function alternate: their
// global shadows must not mix.
#include "check.h"
double g_last;
double g_hist[4];
__attribute__((noinline)) static void record(double v, int k) {
  g_last = v;
  g_hist[k & 3] = v * v;
}
double f(double x, double y) {
  record(x * y, 0);
  double a = g_last + sin(g_last);
  record(a + y, 1);
  return a * g_last + g_hist[0] + g_hist[1];
}
double h(double x) {
  g_hist[2] = x;
  g_hist[3] = 2 * x;
  return g_hist[2] * g_hist[3] + g_hist[3];
}
typedef struct { double dx, dy; } D2;
D2 __enzyme_autodiff_g(void *, double, double);
int main(void) {
  double x = 0.6, y = 1.4;
  for (int rep = 0; rep < 2; rep++) {
    D2 d = __enzyme_autodiff_g((void *)f, x, y);
    CHECK("dx fd", d.dx, FD(x, f(x, y), 1e-6), 1e-6);
    CHECK("dy fd", d.dy, FD(y, f(x, y), 1e-6), 1e-6);
    CHECK("fwd dx", __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0), d.dx, 1e-12);
    CHECK("h", __enzyme_autodiff((void *)h, x), 4 * x + 2, 1e-12);
    CHECK("h fwd", __enzyme_fwddiff((void *)h, x, 1.0), 4 * x + 2, 1e-12);
  }
  CHECK_DONE();
}
