// Reverse mode: enzyme_dupnoneed on an output array (its primal values
// need not be computed), gradient of the inputs through the output seed.
#include "check.h"
void sq(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] * x[i];
}
int main(void) {
  double x[4] = {1, 2, 3, -1}, dx[4] = {0}, y[4], dy[4] = {1, 1, 2, 0.5};
  __enzyme_autodiff((void *)sq, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy, enzyme_const, 4);
  double seed[4] = {1, 1, 2, 0.5};
  for (int i = 0; i < 4; i++) CHECK("dx", dx[i], 3 * x[i] * x[i] * seed[i], 1e-12);
  CHECK_DONE();
}
