// Reverse mode: numerically stable log-sum-exp (max pass, then exp sum);
// gradient is the softmax.
#include "check.h"
double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}
int main(void) {
  double x[5] = {0.5, 2.0, -1.0, 1.5, 0.1}, dx[5] = {0};
  __enzyme_autodiff((void *)lse, x, dx, 5);
  double s = 0;
  for (int i = 0; i < 5; i++) s += exp(x[i]);
  for (int i = 0; i < 5; i++) CHECK("softmax", dx[i], exp(x[i]) / s, 1e-12);
  CHECK_DONE();
}
