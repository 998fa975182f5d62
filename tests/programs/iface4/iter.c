// The second-order reverse frees the shadow of the inner gradient's tape
// buffer (freed in a callee, tape.give.nocache; checked by ASan's leak check).
// __enzyme_iter(n, step): n in the function itself, n + step in its
// derivative, n + 2*step in the derivative of that derivative... (a
// truncated series keeps its accuracy under differentiation, as in Enzyme,
// which adds the step each time it differentiates the function).
// my_sin2 sums the Taylor series of sin up to degree __enzyme_iter(13, 1);
// checked: the count seen by each order, the derivatives against the
// series with one and two more terms, and against finite differences.
#include "check.h"
#include <stdint.h>
uint64_t __enzyme_iter(uint64_t, uint64_t);
static int64_t seen[8];
static int nseen = 0;
__attribute__((noinline)) static double fact(uint64_t k) {
  double r = 1;
  for (uint64_t j = 2; j <= k; j++) r *= j;
  return r;
}
// sin's series up to degree n.
static double series(double x, uint64_t n) {
  double r = 0;
  for (uint64_t i = 1; i <= n; i += 2) r += pow(x, i) / fact(i) * (i % 4 == 1 ? 1 : -1);
  return r;
}
static double dseries(double x, uint64_t n) {
  double r = 0;
  for (uint64_t i = 1; i <= n; i += 2) r += i * pow(x, i - 1) / fact(i) * (i % 4 == 1 ? 1 : -1);
  return r;
}
double my_sin2(double x) {
  uint64_t n = __enzyme_iter(13, 1);
  if (nseen < 8) seen[nseen++] = (int64_t)n;
  return series(x, n);
}
double d_my_sin2(double x) { return __enzyme_autodiff((void *)my_sin2, x); }
double dd_my_sin2(double x) { return __enzyme_autodiff((void *)d_my_sin2, x); }
double f_my_sin2(double x) { return __enzyme_fwddiff((void *)my_sin2, x, 1.0); }

int main(void) {
  double x = 0.9;
  nseen = 0;
  CHECK("primal", my_sin2(x), series(x, 13), 1e-15);
  CHECK("primal sees 13", seen[0], 13, 0);
  nseen = 0;
  double d = d_my_sin2(x);
  CHECK("reverse sees 14", seen[0], 14, 0);
  // With n = 14 the derivative is that of the series to degree 13.
  CHECK("reverse", d, dseries(x, 14), 1e-13);
  CHECK("reverse ~ cos", d, cos(x), 1e-8);
  nseen = 0;
  CHECK("forward", f_my_sin2(x), dseries(x, 14), 1e-13);
  CHECK("forward sees 14", seen[0], 14, 0);
  nseen = 0;
  double dd = dd_my_sin2(x);
  CHECK("second order ~ -sin", dd, -sin(x), 1e-6);
  CHECK("second order fd of the first", dd, FD(x, d_my_sin2(x), 1e-5), 1e-5);
  nseen = 0;
  dd_my_sin2(x);
  CHECK("second order sees 15", seen[0], 15, 0);
  CHECK_DONE();
}
