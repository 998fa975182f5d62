// Reverse: Taylor series of sin with an inner loop recomputing the
// factorial and the power each term (loop-carried products in a nest).
#include "check.h"
double taylor_sin(double x, int terms) {
  double s = 0;
  for (int k = 0; k < terms; k++) {
    int p = 2 * k + 1;
    double fact = 1, pw = 1;
    for (int j = 1; j <= p; j++) {
      fact *= j;
      pw *= x;
    }
    s += (k % 2 ? -1.0 : 1.0) * pw / fact;
  }
  return s;
}
int main(void) {
  double xs[3] = {0.3, 1.2, -2.0};
  for (int i = 0; i < 3; i++) {
    double x = xs[i];
    double d = __enzyme_autodiff((void *)taylor_sin, enzyme_out, x, enzyme_const, 12);
    CHECK("dsin", d, cos(x), 1e-12);
    CHECK("dsin fd", d, FD(x, taylor_sin(x, 12), 1e-6), 1e-7);
  }
  CHECK_DONE();
}
