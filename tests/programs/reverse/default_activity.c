// Reverse mode: no markers at all: floats active, ints const, pointers dup.
#include "check.h"
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
double f(double x, int n, const double *v, double y) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * x + y * y;
  return s;
}
int main(void) {
  double v[3] = {1, 2, 3}, dv[3] = {0};
  double x = 0.5, y = 1.5;
  R2 r = __enzyme_autodiff2((void *)f, x, 3, v, dv, y);
  CHECK("dx", r.a, 6, 1e-12);
  CHECK("dy", r.b, 3 * 2 * y, 1e-12);
  for (int i = 0; i < 3; i++) CHECK("dv", dv[i], x, 1e-12);
  CHECK_DONE();
}
