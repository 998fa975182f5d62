// Reverse: __builtin_expect / __builtin_assume / __builtin_unreachable on
// control paths, signbit/isnan/isinf/isfinite tests of active values,
// explicit fma, pointer increments (*p++, negative strides) and restrict.
#include "check.h"
__attribute__((noinline)) double f(const double *restrict x, double *restrict y, int n) {
  const double *p = x;
  double *q = y + n - 1;
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = *p++;
    if (__builtin_expect(isnan(v) || isinf(v), 0)) continue;
    if (signbit(v)) v = -v * 0.5;
    *q-- = fma(v, v, s);
    s = fma(s, 0.5, v);
  }
  __builtin_assume(n > 0);
  if (!isfinite(s)) __builtin_unreachable();
  double t = 0;
  for (double *r = y; r < y + n; r++) t += *r * 0.3;
  return s * s + t;
}
static double wrap(const double *x, int n) {
  double y[8] = {0}; // f leaves y[0] unwritten when an input is NaN
  return f(x, y, n);
}
int main(void) {
  double x[6] = {0.4, -1.2, 0.9, NAN, -0.3, 1.5}, y[6], dx[6] = {0}, dy[6] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 6);
  for (int i = 0; i < 6; i++) {
    if (i == 3) {
      CHECK("dx nan slot", dx[i], 0, 0);
      continue;
    }
    CHECK("dx fd", dx[i], FD(x[i], wrap(x, 6), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
