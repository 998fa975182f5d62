// Reverse: small structs of doubles returned by value from noinline
// callees, chained through a loop (2x2 matrix powers), active scalars.
#include "check.h"
typedef struct { double a, b, c, d; } M2;
__attribute__((noinline)) static M2 mul(M2 x, M2 y) {
  M2 r = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  return r;
}
double f(double s, double t, int k) {
  M2 m = {cos(s), -sin(s) * t, sin(s) / t, cos(s)}, p = {1, 0, 0, 1};
  for (int i = 0; i < k; i++) p = mul(p, m);
  return p.a + 2 * p.b + 3 * p.c + 4 * p.d;
}
typedef struct { double ds, dt; } D2;
D2 __enzyme_autodiff_s(void *, ...);
int main(void) {
  double s = 0.3, t = 1.7;
  D2 d = __enzyme_autodiff_s((void *)f, enzyme_out, s, enzyme_out, t, enzyme_const, 7);
  CHECK("ds fd", d.ds, FD(s, f(s, t, 7), 1e-6), 1e-6);
  CHECK("dt fd", d.dt, FD(t, f(s, t, 7), 1e-6), 1e-6);
  CHECK_DONE();
}
