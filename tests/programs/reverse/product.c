// Reverse mode: product of an array (loop-carried multiplication).
#include "check.h"
double prod(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}
int main(void) {
  double x[6] = {1.5, -2, 0.5, 3, 1.25, -0.75}, dx[6] = {0};
  __enzyme_autodiff((void *)prod, enzyme_dup, x, dx, enzyme_const, 6);
  for (int i = 0; i < 6; i++) {
    double want = 1;
    for (int j = 0; j < 6; j++) if (j != i) want *= x[j];
    CHECK("dprod analytic", dx[i], want, 1e-12);
    CHECK("dprod fd", dx[i], FD(x[i], prod(x, 6), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
