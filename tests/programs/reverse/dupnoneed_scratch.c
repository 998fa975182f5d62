// Reverse mode: enzyme_dupnoneed on a scratch output whose primal value
// the caller does not need, with a returned scalar loss.
#include "check.h"
double f(const double *x, double *scratch, int n) {
  for (int i = 0; i < n; i++) scratch[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += scratch[i] * scratch[(i + 1) % n];
  return s;
}
int main(void) {
  double x[4] = {0.1, 0.2, -0.3, 0.4}, dx[4] = {0}, sc[4], dsc[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dupnoneed, sc, dsc, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    double want = exp(x[i]) * (exp(x[(i + 1) % 4]) + exp(x[(i + 3) % 4]));
    CHECK("dx", dx[i], want, 1e-12);
  }
  CHECK_DONE();
}
