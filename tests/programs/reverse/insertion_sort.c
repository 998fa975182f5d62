// Reverse mode: sort a copy with insertion sort (data-dependent control
// flow), then a weighted sum of the sorted values.
#include "check.h"
enum { N = 8 };
double f(const double *x) {
  double t[N];
  for (int i = 0; i < N; i++) t[i] = x[i];
  for (int i = 1; i < N; i++) {
    double key = t[i];
    int j = i - 1;
    while (j >= 0 && t[j] > key) {
      t[j + 1] = t[j];
      j--;
    }
    t[j + 1] = key;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * t[i] * t[i];
  return s;
}
int main(void) {
  double x[N] = {0.3, -1.2, 2.5, 0.9, -0.4, 1.7, 3.1, -2.2}, dx[N] = {0};
  __enzyme_autodiff((void *)f, x, dx);
  for (int i = 0; i < N; i++) CHECK("dsort fd", dx[i], FD(x[i], f(x), 1e-6), 1e-6);
  /* analytic: rank r(i) => 2 (r+1) x_i */
  for (int i = 0; i < N; i++) {
    int r = 0;
    for (int j = 0; j < N; j++) r += x[j] < x[i];
    CHECK("dsort analytic", dx[i], 2.0 * (r + 1) * x[i], 1e-12);
  }
  CHECK_DONE();
}
