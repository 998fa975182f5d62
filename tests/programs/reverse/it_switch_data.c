// Reverse: a switch on an int computed from the data (floor of an active
// value) selecting a different formula per piece, in a loop.
#include "check.h"
__attribute__((noinline)) double piece(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    switch ((int)floor(v * 2) & 3) {
    case 0: s += v * v; break;
    case 1: s += sin(v); /* fallthrough */
    case 2: s += exp(0.5 * v); break;
    default: s -= v * v * v;
    }
  }
  return s;
}
int main(void) {
  double x[6] = {0.2, 0.7, 1.2, 1.8, -0.3, 2.6}, dx[6] = {0};
  __enzyme_autodiff((void *)piece, enzyme_dup, x, dx, enzyme_const, 6);
  for (int i = 0; i < 6; i++) {
    double v = x[i], w;
    switch ((int)floor(v * 2) & 3) {
    case 0: w = 2 * v; break;
    case 1: w = cos(v) + 0.5 * exp(0.5 * v); break;
    case 2: w = 0.5 * exp(0.5 * v); break;
    default: w = -3 * v * v;
    }
    CHECK("dx", dx[i], w, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], piece(x, 6), 1e-7), 1e-6);
  }
  CHECK_DONE();
}
