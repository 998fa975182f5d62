// Reverse and forward mode (C++): doubles moved as two 32-bit halves at
// every level (-O0 keeps the halves as i32 loads and stores): a struct of
// two uint32_t filled by memcpy and copied field by field into another
// (the halves swapped through a temporary, twice), and a loop moving each
// element of an array through a union's halves. Each half's derivative is
// the matching half of the double's, moved bit for bit.
#include "check.h"
#include <cmath>
#include <cstdint>
#include <cstring>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
struct Halves {
  uint32_t lo, hi;
};
union Bits {
  double d;
  uint32_t w[2];
};
static double through_struct(double v) {
  Halves s, t;
  std::memcpy(&s, &v, 8);
  t.lo = s.hi;  // swapped
  t.hi = s.lo;
  uint32_t tmp = t.lo;  // and back, through a temporary
  t.lo = t.hi;
  t.hi = tmp;
  double out;
  std::memcpy(&out, &t, 8);
  return out;
}
static void move_all(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    Bits a, b;
    a.d = x[i];
    b.w[1] = a.w[1];
    b.w[0] = a.w[0];
    y[i] = b.d;
  }
}
static double f(const double *p) {
  double y[3];
  move_all(p, y, 3);
  double s = through_struct(p[0] * p[1]);
  return s * y[2] + std::sin(y[0]) * y[1] + y[2] * y[2];
}
int main() {
  double p[3] = {0.7, -1.3, 0.4}, dp[3] = {0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  double x = p[0], y = p[1], z = p[2];
  CHECK("dx", dp[0], y * z + std::cos(x) * y, 1e-12);
  CHECK("dy", dp[1], x * z + std::sin(x), 1e-12);
  CHECK("dz", dp[2], x * y + 2 * z, 1e-12);
  for (int i = 0; i < 3; i++) {
    CHECK("fd", dp[i], FD(p[i], f(p), 1e-6), 1e-6);
    double tp[3] = {0, 0, 0};
    tp[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, p, tp);
    CHECK("fwd", t, dp[i], 1e-12);
  }
  CHECK_DONE();
}
