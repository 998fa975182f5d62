// sin, cos, tan, asin, acos, atan, atan2.
#include "check.h"
double f_sin(double x) { return sin(2 * x); }
double f_cos(double x) { return cos(x * x); }
double f_tan(double x) { return tan(x); }
double f_asin(double x) { return asin(x); }
double f_acos(double x) { return acos(x); }
double f_atan(double x) { return atan(3 * x); }
double f_atan2(double y, double x) { return atan2(y, x); }
#define T CHECK_FWD1
int main(void) {
  double x = 0.35;
  T(f_sin, x, 2 * cos(2 * x));
  T(f_cos, x, -2 * x * sin(x * x));
  T(f_tan, x, 1 / (cos(x) * cos(x)));
  T(f_asin, x, 1 / sqrt(1 - x * x));
  T(f_acos, x, -1 / sqrt(1 - x * x));
  T(f_atan, x, 3 / (1 + 9 * x * x));
  double y = 0.8, z = -1.3;
  double dy = __enzyme_fwddiff((void *)f_atan2, y, 1.0, z, 0.0);
  double dz = __enzyme_fwddiff((void *)f_atan2, y, 0.0, z, 1.0);
  CHECK("atan2 dy", dy, z / (y * y + z * z), 1e-12);
  CHECK("atan2 dx", dz, -y / (y * y + z * z), 1e-12);
  CHECK("atan2 dy fd", dy, FD(y, f_atan2(y, z), 1e-6), 1e-6);
  CHECK("atan2 dx fd", dz, FD(z, f_atan2(y, z), 1e-6), 1e-6);
  CHECK_DONE();
}
