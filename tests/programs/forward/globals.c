// Globals: a constant table read by the function, and a global scratch
// variable written with an active value (it gets a shadow global).
#include "check.h"
static const double weights[4] = {0.5, 1.5, -2.0, 3.0};
double scratch;
double f(double x) {
  double s = 0;
  for (int i = 0; i < 4; i++) s += weights[i] * pow(x, i);
  scratch = s * x;
  return scratch + s;
}
int main(void) {
  double x = 0.7;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  double s = 0, ds = 0;
  for (int i = 0; i < 4; i++) { s += weights[i] * pow(x, i); ds += i * weights[i] * pow(x, i - 1); }
  CHECK("df/dx", d, ds * x + s + ds, 1e-12);
  CHECK("primal scratch written", scratch, s * x, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
