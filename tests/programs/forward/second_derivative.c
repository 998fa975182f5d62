// Higher order: forward mode over a function that itself calls
// __enzyme_fwddiff (the inner call is differentiated first).
#include "check.h"
double f(double x) { return sin(x) * x * x; }
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
int main(void) {
  double x = 0.9;
  double d1 = df(x);
  double d2 = __enzyme_fwddiff((void *)df, x, 1.0);
  CHECK("f'", d1, cos(x) * x * x + 2 * x * sin(x), 1e-12);
  CHECK("f''", d2, -sin(x) * x * x + 4 * x * cos(x) + 2 * sin(x), 1e-12);
  CHECK("f'' fd", d2, FD(x, df(x), 1e-5), 1e-6);
  CHECK_DONE();
}
