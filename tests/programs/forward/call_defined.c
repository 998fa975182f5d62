// Calls to other functions defined in the module (kept as calls with
// noinline, inlined at higher levels otherwise).
#include "check.h"
__attribute__((noinline)) double sq(double x) { return x * x; }
__attribute__((noinline)) double poly(double x, double a) { return sq(x) * a + sin(x); }
__attribute__((noinline)) void accumulate(double *acc, double v) { *acc += sq(v); }
static double helper(double x) { return poly(x, 3.0) + exp(x); }
double f(double x) {
  double acc = 0;
  accumulate(&acc, x);
  accumulate(&acc, 2 * x);
  return helper(x) * acc;
}
int main(void) {
  double x = 0.7;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  double h = 3 * x * x + sin(x) + exp(x), dh = 6 * x + cos(x) + exp(x);
  double acc = 5 * x * x, dacc = 10 * x;
  CHECK("df/dx", d, dh * acc + h * dacc, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
