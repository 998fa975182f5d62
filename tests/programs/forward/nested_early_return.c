// A return from inside a nested loop, and a switch on an integer derived
// from the active value.
#include "check.h"
double search(double x, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      acc += x * (i + j);
      if (acc > 20) return acc * x;
    }
    acc *= 0.5;
  }
  return acc;
}
double sw(double x) {
  int k = (int)(x * 2);
  double r;
  switch (k) {
  case 1: r = x * x; break;
  case 2: r = sin(x); break;
  case 3: r = exp(x); break;
  default: r = x;
  }
  return r * x;
}
int main(void) {
  double x = 1.3;
  double ds = __enzyme_fwddiff((void *)search, x, 1.0, 10);
  /* acc is c*x for a constant c when the early return fires: result c*x^2 */
  CHECK("search", ds, 2 * search(x, 10) / x, 1e-12);
  CHECK("search fd", ds, FD(x, search(x, 10), 1e-7), 1e-5);
  for (double y = 0.3; y < 2.2; y += 0.5) {
    double dw = __enzyme_fwddiff((void *)sw, y, 1.0);
    int k = (int)(y * 2);
    double want = k == 1 ? 3 * y * y : k == 2 ? cos(y) * y + sin(y) : k == 3 ? exp(y) * (1 + y) : 2 * y;
    CHECK("sw", dw, want, 1e-12);
    CHECK("sw fd", dw, FD(y, sw(y), 1e-7), 1e-5);
  }
  CHECK_DONE();
}
