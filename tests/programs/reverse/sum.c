// Reverse mode: sum of an array; gradient is all ones, added into dx.
#include "check.h"
double sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}
int main(void) {
  double x[5] = {1, -2, 3.5, 4, 0.25}, dx[5] = {0};
  __enzyme_autodiff((void *)sum, x, dx, 5);
  for (int i = 0; i < 5; i++) CHECK("dsum/dx", dx[i], 1.0, 1e-12);
  CHECK_DONE();
}
