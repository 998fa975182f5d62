// Reverse mode: several return statements (the return taken is on the
// tape), do-while and goto.
#include "check.h"
double piecewise(double x, double y) {
  if (x < -1) return x * y;
  if (x < 0) return sin(x) * y * y;
  double r = x;
  int k = 0;
  do { r = r * 0.5 + y; k++; } while (k < 3);
  if (r > 10) goto big;
  return r * r;
big:
  return log(r) * x;
}
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
int main(void) {
  double xs[4] = {-2, -0.5, 0.5, 30}, ys[4] = {0.3, 1.2, 0.4, 20};
  for (int k = 0; k < 4; k++) {
    double x = xs[k], y = ys[k];
    R2 r = __enzyme_autodiff2((void *)piecewise, x, y);
    CHECK("dx fd", r.a, FD(x, piecewise(x, y), 1e-6), 1e-6);
    CHECK("dy fd", r.b, FD(y, piecewise(x, y), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
