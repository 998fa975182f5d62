// fabs and copysign: sign-dependent derivatives.
#include "check.h"
double f_abs(double x) { return fabs(x * x * x - 1.0); }
double f_cs(double x, double y) { return copysign(x * x, y); }
int main(void) {
  double x = 1.5;
  double d = __enzyme_fwddiff((void *)f_abs, x, 1.0);
  CHECK("fabs x>1", d, 3 * x * x, 1e-12);
  CHECK("fabs fd", d, FD(x, f_abs(x), 1e-6), 1e-6);
  x = 0.5;
  d = __enzyme_fwddiff((void *)f_abs, x, 1.0);
  CHECK("fabs x<1", d, -3 * x * x, 1e-12);
  CHECK("fabs fd", d, FD(x, f_abs(x), 1e-6), 1e-6);
  double y = -2.0;
  double dx = __enzyme_fwddiff((void *)f_cs, x, 1.0, y, 0.0);
  double dy = __enzyme_fwddiff((void *)f_cs, x, 0.0, y, 1.0);
  CHECK("copysign dx", dx, -2 * x, 1e-12);
  CHECK("copysign dy", dy, 0.0, 0);
  CHECK("copysign dx fd", dx, FD(x, f_cs(x, y), 1e-6), 1e-6);
  x = -0.5; y = 3.0;
  dx = __enzyme_fwddiff((void *)f_cs, x, 1.0, y, 0.0);
  CHECK("copysign dx (x<0,y>0)", dx, 2 * x, 1e-12);
  CHECK("copysign fd", dx, FD(x, f_cs(x, y), 1e-6), 1e-6);
  CHECK_DONE();
}
