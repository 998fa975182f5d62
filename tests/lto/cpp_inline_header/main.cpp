// C++: an inline function from a header, used in two files, differentiates
// a function of a third file; each copy's call is deferred to the link.
#include "grad.hpp"
#include "check.h"
double other_use(double x);
int main() {
  double x = 0.9, y = 2.0;
  CHECK("df/dx", df_dx(x, y), y * cos(x * y) + 2 * x, 1e-12);
  CHECK("df/dx other file", other_use(x), 2 * cos(2 * x) + 2 * x, 1e-12);
  CHECK("fd", df_dx(x, y), FD(x, f(x, y), 1e-6), 1e-6);
  CHECK_DONE();
}
