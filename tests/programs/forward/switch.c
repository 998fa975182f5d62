// switch on an integer argument (constant) selecting different formulas.
#include "check.h"
double f(double x, int k) {
  double r = 1.0;
  switch (k) {
  case 0: r = x * x; break;
  case 1: r = exp(x); break;
  case 2: r = x * 3.0;
    /* fallthrough */
  case 3: r += sin(x); break;
  default: r = 7.0; break;
  }
  return r;
}
int main(void) {
  double x = 0.8;
  double want[5] = {2 * x, exp(x), 3.0 + cos(x), cos(x), 0.0};
  for (int k = 0; k < 5; k++) {
    double d = __enzyme_fwddiff((void *)f, x, 1.0, k);
    CHECK("df/dx analytic", d, want[k], 1e-12);
    CHECK("df/dx fd", d, FD(x, f(x, k), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
