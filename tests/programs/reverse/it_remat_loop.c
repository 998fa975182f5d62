// Reverse: values cheap to recompute (pure functions of the inputs and the
// counter) mixed with values that must be kept (running state), in a
// loop that also overwrites a scratch array every iteration.
#include "check.h"
__attribute__((noinline)) double f(const double *x, int n, int iters) {
  double state = 1.0;
  double scratch[16];
  for (int t = 0; t < iters; t++) {
    for (int i = 0; i < n; i++) scratch[i] = x[i] * cos(0.1 * t) + state * 0.01 * i;
    double s = 0;
    for (int i = 0; i < n; i++) s += scratch[i] * scratch[i];
    state = state * 0.9 + sqrt(s + 1.0) * 0.1;
  }
  return state;
}
int main(void) {
  double x[5] = {0.3, -0.2, 0.7, 1.1, -0.6}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5, enzyme_const, 30);
  for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 5, 30), 1e-6), 1e-6);
  CHECK_DONE();
}
