// THIN-O0: ok
// A multi-file program whose differentiation calls only name functions of
// their own file: done at compile time, so it works with every LTO mode,
// ThinLTO -O0 included; the other file is plain code called around it.
#include "check.h"
double scale_all(double *x, int n, double s); /* other.c */
static double poly(double x) { return 3 * x * x * x - x + 2; }
int main(void) {
  double x[3] = {1, 2, 3};
  double s = scale_all(x, 3, 0.5);
  double d = __enzyme_autodiff((void *)poly, s);
  CHECK("dpoly", d, 9 * s * s - 1, 1e-12);
  double t = __enzyme_fwddiff((void *)poly, x[1], 1.0);
  CHECK("dpoly fwd", t, 9 * x[1] * x[1] - 1, 1e-12);
  CHECK_DONE();
}
