// Reverse mode: Newton iteration until convergence (data-dependent trip
// count); derivative of sqrt(a) via the iterates.
#include "check.h"
double nsqrt(double a) {
  double x = a > 1 ? a : 1;
  int it = 0;
  while (fabs(x * x - a) > 1e-14 * a && it < 100) {
    x = 0.5 * (x + a / x);
    it++;
  }
  return x;
}
int main(void) {
  double as[4] = {2, 9, 0.25, 123.4};
  for (int k = 0; k < 4; k++) {
    double d = __enzyme_autodiff((void *)nsqrt, as[k]);
    CHECK("dnsqrt", d, 0.5 / sqrt(as[k]), 1e-6);
  }
  CHECK_DONE();
}
