// C++ with exceptions enabled: calls that may throw (invoke) are
// differentiated as plain calls; the derivative assumes no exception is
// thrown (as here).
#include "check.h"
extern int enzyme_const;
double may_throw(double x) {
  if (x > 1e300) throw 1;
  return x * x * sin(x);
}
double f(double x) {
  try {
    return may_throw(x) + 2 * may_throw(0.5 * x);
  } catch (int) {
    return 0;
  }
}
int main() {
  double x = 0.9;
  CHECK("reverse", __enzyme_autodiff((void *)f, x), FD(x, f(x), 1e-6), 1e-6);
  CHECK("forward", __enzyme_fwddiff((void *)f, x, 1.0), FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
