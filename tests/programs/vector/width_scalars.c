// Vector forward mode with scalar arguments: widths 2, 4 and 16, results as
// a struct, an array-in-struct and a vector of tangents; a called function,
// a loop (phis) and a local array (allocas) in between.
// LEVELS: O0 O1 O2 O3
#include "check.h"

__attribute__((noinline)) double inner(double x, double y) { return sin(x) * y + x * x * y; }

double f(double x, double y) {
  double acc[2] = {0, 0};
  for (int i = 1; i <= 3; i++) {
    acc[i & 1] += inner(x * i, y) / i;
  }
  return acc[0] * acc[1] + exp(0.1 * x * y);
}

typedef struct { double a, b; } d2;
typedef struct { double v[4]; } d4;
typedef struct { double v[16]; } d16;
typedef struct { double p; double t[4]; } p4;
extern d2 __enzyme_fwddiff_2(void *, ...);
extern d4 __enzyme_fwddiff_4(void *, ...);
extern d16 __enzyme_fwddiff_16(void *, ...);
extern p4 __enzyme_fwddiff_p4(void *, ...);

int main(void) {
  double x = 0.7, y = -1.3;
  double fx = FD(x, f(x, y), 1e-6), fy = FD(y, f(x, y), 1e-6);
  d2 r2 = __enzyme_fwddiff_2((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  CHECK("w2 dx", r2.a, fx, 1e-6);
  CHECK("w2 dy", r2.b, fy, 1e-6);
  d4 r4 = __enzyme_fwddiff_4((void *)f, enzyme_width, 4, enzyme_dup, x, 1.0, 0.0, 2.0, 1.0,
                             enzyme_dup, y, 0.0, 1.0, 0.0, -1.0);
  CHECK("w4 lane0", r4.v[0], fx, 1e-6);
  CHECK("w4 lane1", r4.v[1], fy, 1e-6);
  CHECK("w4 lane2", r4.v[2], 2 * fx, 1e-6);
  CHECK("w4 lane3", r4.v[3], fx - fy, 1e-6);
  d16 r16 = __enzyme_fwddiff_16((void *)f, enzyme_width, 16,
                                x, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0,
                                y, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0);
  for (int l = 0; l < 16; l++) {
    char nm[16];
    snprintf(nm, sizeof nm, "w16 lane%d", l);
    CHECK(nm, r16.v[l], l * fx + fy, 1e-6);
  }
  p4 rp = __enzyme_fwddiff_p4((void *)f, enzyme_width, 4, enzyme_primal_return, x, 1.0, 0.0, 1.0, 0.5,
                              y, 0.0, 1.0, 1.0, 0.5);
  CHECK("primal", rp.p, f(x, y), 1e-12);
  CHECK("p4 lane0", rp.t[0], fx, 1e-6);
  CHECK("p4 lane1", rp.t[1], fy, 1e-6);
  CHECK("p4 lane2", rp.t[2], fx + fy, 1e-6);
  CHECK("p4 lane3", rp.t[3], 0.5 * (fx + fy), 1e-6);
  CHECK_DONE();
}
