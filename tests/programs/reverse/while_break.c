// Reverse mode: while loop with an early exit (break) on a data value.
#include "check.h"
double f(const double *x, int n, double thresh) {
  double s = 0;
  int i = 0;
  while (i < n) {
    if (s > thresh) break;
    s += x[i] * x[i];
    i++;
  }
  return s * 2;
}
int main(void) {
  double x[10], dx[10] = {0};
  for (int i = 0; i < 10; i++) x[i] = 0.5 + 0.1 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 10, enzyme_const, 1.5);
  int stop = 0; double s = 0;
  while (stop < 10 && !(s > 1.5)) { s += x[stop] * x[stop]; stop++; }
  for (int i = 0; i < 10; i++) {
    double want = i < stop ? 4 * x[i] : 0;
    CHECK("dbreak analytic", dx[i], want, 1e-12);
    CHECK("dbreak fd", dx[i], FD(x[i], f(x, 10, 1.5), 1e-7), 1e-6);
  }
  CHECK_DONE();
}
