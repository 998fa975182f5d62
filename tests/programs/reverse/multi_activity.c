// Reverse mode: a helper called several times inside the differentiated
// function with different activities (active/const args, dup/const ptrs).
#include "check.h"
static double __attribute__((noinline)) h(double a, double b, const double *p) {
  return a * b + p[0] * a + p[1] * b * b;
}
double f(double x, double y, const double *p, const double *q) {
  double r = h(x, y, p);      /* both active, p dup */
  r += h(x, 2.0, q);          /* b const, q const */
  r += h(3.0, y, p);          /* a const */
  r += h(1.5, 0.5, p);        /* only p active */
  return r;
}
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
int main(void) {
  double x = 0.7, y = -0.2, p[2] = {1.1, 0.4}, dp[2] = {0}, q[2] = {2, 3};
  R2 r = __enzyme_autodiff2((void *)f, x, y, enzyme_dup, p, dp, enzyme_const, q);
  CHECK("dx", r.a, FD(x, f(x, y, p, q), 1e-6), 1e-7);
  CHECK("dy", r.b, FD(y, f(x, y, p, q), 1e-6), 1e-7);
  CHECK("dp0", dp[0], FD(p[0], f(x, y, p, q), 1e-6), 1e-7);
  CHECK("dp1", dp[1], FD(p[1], f(x, y, p, q), 1e-6), 1e-7);
  CHECK("dp0 analytic", dp[0], x + 3 + 1.5, 1e-12);
  CHECK_DONE();
}
