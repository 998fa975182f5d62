// Forward and reverse mode through a table of function pointers indexed by
// data (the target is unknown at compile time at every level): the call goes
// through a dispatcher over the address-taken functions of its type.
#include "check.h"
double sq(double x) { return x * x; }
double cube(double x) { return x * x * x; }
double (*volatile table[3])(double) = {sq, cube, sin};
double f(double x, int k) { return table[k](x) * x + table[(k + 1) % 3](x); }
int main(void) {
  double x = 0.7;
  for (int k = 0; k < 3; k++) {
    double fd = FD(x, f(x, k), 1e-6);
    CHECK("fwd", __enzyme_fwddiff((void *)f, x, 1.0, k), fd, 1e-6);
    CHECK("rev", __enzyme_autodiff((void *)f, x, k), fd, 1e-6);
  }
  CHECK_DONE();
}
