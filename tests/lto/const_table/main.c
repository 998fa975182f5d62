// The function differentiated (interp.c) reads a constant table and a
// mutable global defined in a third file (table.c).
#include "check.h"
double interp(double t);
extern double gain;
int main(void) {
  double ts[3] = {0.25, 1.6, 2.9};
  for (int i = 0; i < 3; i++) {
    double t = ts[i];
    double d = __enzyme_autodiff((void *)interp, t);
    CHECK("dinterp fd", d, FD(t, interp(t), 1e-7), 1e-5);
    double f = __enzyme_fwddiff((void *)interp, t, 1.0);
    CHECK("fwd = rev", f, d, 1e-12);
  }
  CHECK_DONE();
}
