// Reverse and forward mode (C++): a double stored as two 32-bit halves
// through a union (written as double, read as uint32_t[2], written back
// half by half into another union and read as double), and the memcpy
// round trip of double_halves.cpp. At -O0 the union's halves stay 32-bit
// loads and stores of memory that holds a double: each half carries the
// matching half of the double's derivative (analysis/halves.rs).
#include "check.h"
#include <cmath>
#include <cstdint>
#include <cstring>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
union Bits {
  double d;
  uint32_t w[2];
};
__attribute__((noinline)) static void split(double v, uint32_t *w) { std::memcpy(w, &v, 8); }
__attribute__((noinline)) static double join(const uint32_t *w) {
  double v;
  std::memcpy(&v, w, 8);
  return v;
}
static double f(const double *p) {
  double x = p[0], y = p[1];
  uint32_t h[2];
  split(x * y, h);
  uint32_t t = h[0];  // swap the halves twice
  h[0] = h[1];
  h[1] = t;
  t = h[0];
  h[0] = h[1];
  h[1] = t;
  double a = join(h);
  Bits b;
  b.d = std::sin(x);
  uint32_t lo = b.w[0], hi = b.w[1];
  Bits c;
  c.w[0] = lo;
  c.w[1] = hi;
  return a * c.d + y;
}
int main() {
  double p[2] = {0.7, -1.3}, dp[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  double x = p[0], y = p[1];
  CHECK("dx", dp[0], y * std::sin(x) + x * y * std::cos(x), 1e-12);
  CHECK("dy", dp[1], x * std::sin(x) + 1, 1e-12);
  for (int i = 0; i < 2; i++) {
    CHECK("fd", dp[i], FD(p[i], f(p), 1e-6), 1e-6);
    double tp[2] = {0, 0};
    tp[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, p, tp);
    CHECK("fwd", t, dp[i], 1e-12);
  }
  CHECK_DONE();
}
