// Reverse mode: derivatives are ADDED into existing shadow values; calling
// twice doubles them.
#include "check.h"
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * (i + 1);
  return s;
}
int main(void) {
  double x[4] = {0.1, 0.2, 0.3, 0.4}, dx[4] = {10, -20, 30, 0.5};
  double pre[4] = {10, -20, 30, 0.5};
  __enzyme_autodiff((void *)f, x, dx, 4);
  for (int i = 0; i < 4; i++) CHECK("added", dx[i], pre[i] + cos(x[i]) * (i + 1), 1e-12);
  __enzyme_autodiff((void *)f, x, dx, 4);
  for (int i = 0; i < 4; i++) CHECK("added twice", dx[i], pre[i] + 2 * cos(x[i]) * (i + 1), 1e-12);
  CHECK_DONE();
}
