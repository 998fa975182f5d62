// Reverse mode: structs passed by value to helpers (including a large one
// passed through memory, byval) and returned by value (sret).
#include "check.h"
typedef struct { double a, b, c, d, e; } Big;
typedef struct { double x, y; } Small;
static double __attribute__((noinline)) big_energy(Big s) { return s.a * s.b + s.c * s.d * s.e; }
static Big __attribute__((noinline)) make_big(double t) {
  Big b = {t, t * t, sin(t), cos(t), exp(t)};
  return b;
}
static double __attribute__((noinline)) small_len(Small s) { return sqrt(s.x * s.x + s.y * s.y); }
double f(double t) {
  Big b = make_big(t);
  Small s = {t, 2 * t};
  return big_energy(b) + small_len(s);
}
int main(void) {
  double t = 0.6;
  double d = __enzyme_autodiff((void *)f, t);
  CHECK("dbyval fd", d, FD(t, f(t), 1e-6), 1e-6);
  CHECK_DONE();
}
