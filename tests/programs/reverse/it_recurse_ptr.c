// Reverse: a recursive function returning double that reads through a
// pointer argument at each depth.
#include "check.h"
__attribute__((noinline)) double rec(const double *x, int n) {
  if (n == 0) return x[0];
  return x[n] * rec(x, n - 1) + sin(x[n]);
}
int main(void) {
  double x[6] = {0.5, 1.1, -0.3, 0.8, 1.7, -1.2};
  double dx[6] = {0};
  __enzyme_autodiff((void *)rec, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 6; i++) {
    CHECK("dx fd", dx[i], FD(x[i], rec(x, 5), 1e-6), 1e-6);
  }
  /* analytic for the last: d/dx5 = rec(x,4) + cos(x5) */
  CHECK("dx5", dx[5], rec(x, 4) + cos(x[5]), 1e-12);
  CHECK_DONE();
}
