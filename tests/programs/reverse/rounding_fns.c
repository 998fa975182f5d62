// Reverse mode: floor/ceil/trunc/round have zero derivative; fma, powi,
// fdim, cbrt.
#include "check.h"
double f(double x, double y) {
  return x - floor(x) + ceil(y) * x + round(x * 3) + trunc(y) + fma(x, y, x) +
         __builtin_powi(x, 3) + fdim(x, y) + cbrt(y);
}
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
int main(void) {
  double x = 1.3, y = 0.6;
  R2 r = __enzyme_autodiff2((void *)f, x, y);
  CHECK("dx", r.a, 1 + ceil(y) + y + 1 + 3 * x * x + 1, 1e-12);
  CHECK("dy", r.b, x - 1 + 1 / (3 * cbrt(y) * cbrt(y)), 1e-12);
  CHECK_DONE();
}
