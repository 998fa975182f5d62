// Reverse: an early return from inside a doubly nested loop, after part
// of the output array has been written, with the exit decided by data.
#include "check.h"
__attribute__((noinline)) double f(const double *x, double *y, int n, double limit) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      acc += x[i] * x[j];
      if (acc > limit) {
        y[i] = acc;
        return acc * 2 + y[0];
      }
    }
    y[i] = acc * 0.5;
  }
  return acc;
}
static double wrap(const double *x, int n, double limit) {
  double y[8] = {0};
  double r = f(x, y, n, limit);
  double s = r;
  for (int i = 0; i < n; i++) s += y[i] * (i + 1);
  return s;
}
double g(const double *x, double *y, int n, double limit) {
  double r = f(x, y, n, limit);
  double s = r;
  for (int i = 0; i < n; i++) s += y[i] * (i + 1);
  return s;
}
int main(void) {
  double x[5] = {0.5, 0.8, -0.3, 1.2, 0.9};
  double limits[2] = {1.5, 100.0};
  for (int k = 0; k < 2; k++) {
    double y[5] = {0}, dy[5] = {0}, dx[5] = {0};
    __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 5, enzyme_const, limits[k]);
    for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], wrap(x, 5, limits[k]), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
