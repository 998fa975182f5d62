// Reverse mode: a variable-length array (dynamic alloca) as a temporary.
#include "check.h"
double f(const double *x, int n) {
  double t[n];
  for (int i = 0; i < n; i++) t[i] = x[i] * x[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i];
  return s;
}
int main(void) {
  double x[5] = {0.5, 1, -1.5, 2, 0.25}, dx[5] = {0};
  __enzyme_autodiff((void *)f, x, dx, 5);
  for (int i = 0; i < 5; i++) CHECK("dvla fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  CHECK_DONE();
}
