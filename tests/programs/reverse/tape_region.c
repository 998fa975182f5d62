// Reverse mode: the augmented sweep's straight-line region shares one tape
// capacity check (aug/region.rs): branches on data that each push, then a
// call that pushes onto the tape itself (the region ends there: the blocks
// after it keep their own check), more branches, and a loop.
// LEVELS: O0 O1 O2 O3
#include "check.h"
#include <math.h>
__attribute__((noinline)) double g(double x, double y) {
  double t = x > 0.1 ? sin(x) * y : exp(x) * y;
  return t * t;
}
double f(double x, double y, const double *v, int n) {
  double a = exp(0.5 * x) * y;
  if (a > 1.0)
    a = sin(a) * a;
  else
    a = a * a * x;
  double b = a > 0.3 ? log(a + 2.0) * x : cos(a) * y;
  double c = g(a, b);
  if (c > b)
    c = c * sin(b);
  else
    c = c * exp(-b);
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * sin(c * v[i] + s);
  return s + a * b;
}
typedef struct { double dx, dy; } D2;
D2 __enzyme_autodiff_d2(void *, ...);
int main(void) {
  double v[4] = {0.5, -0.25, 0.75, 0.125};
  // Points that take each side of every branch.
  const double pts[4][2] = {{0.9, 1.3}, {-0.7, 0.4}, {0.2, -0.8}, {1.5, 0.6}};
  for (int p = 0; p < 4; p++) {
    double x = pts[p][0], y = pts[p][1];
    double dv[4] = {0};
    D2 d = __enzyme_autodiff_d2((void *)f, x, y, enzyme_dup, v, dv, enzyme_const, 4);
    CHECK("d/dx fd", d.dx, FD(x, f(x, y, v, 4), 1e-6), 1e-6);
    CHECK("d/dy fd", d.dy, FD(y, f(x, y, v, 4), 1e-6), 1e-6);
    for (int i = 0; i < 4; i++)
      CHECK("d/dv fd", dv[i], FD(v[i], f(x, y, v, 4), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
