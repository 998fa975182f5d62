// Reverse mode: three active scalars, derivatives returned as a 24-byte
// struct (returned through an sret pointer) and a 16-byte struct (in regs).
#include "check.h"
typedef struct { double a, b, c; } R3;
typedef struct { double a, b; } R2;
R3 __enzyme_autodiff3(void *, ...);
R2 __enzyme_autodiff2(void *, ...);
double f(double x, double y, double z) { return x * y * z + sin(x) * exp(z) - y * y; }
double g(double x, int k, double y) { return pow(x, k) * y; }
int main(void) {
  double x = 0.8, y = -1.3, z = 0.45;
  R3 r = __enzyme_autodiff3((void *)f, x, y, z);
  CHECK("dx", r.a, y * z + cos(x) * exp(z), 1e-12);
  CHECK("dy", r.b, x * z - 2 * y, 1e-12);
  CHECK("dz", r.c, x * y + sin(x) * exp(z), 1e-12);
  R3 r2 = __enzyme_autodiff3((void *)f, enzyme_out, x, enzyme_out, y, enzyme_out, z);
  CHECK("dx marked", r2.a, r.a, 0);
  CHECK("dz marked", r2.c, r.c, 0);
  R2 s = __enzyme_autodiff2((void *)g, x, 3, y);
  CHECK("g dx", s.a, 3 * x * x * y, 1e-12);
  CHECK("g dy", s.b, x * x * x, 1e-12);
  CHECK_DONE();
}
