// Reverse mode: a return from inside a loop (search for the first value
// above a bound, then compute with it) and a loop exiting on either of
// two conditions.
#include "check.h"
double first_above(const double *x, int n, double bound) {
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i];
    if (v > bound) return v * (i + 1);
  }
  return x[n - 1];
}
double two_exits(const double *x, int n) {
  double s = 1;
  int i = 0;
  for (;;) {
    if (i >= n) break;
    s *= x[i];
    if (s < -2) break;
    i++;
  }
  return s;
}
int main(void) {
  double x[6] = {0.5, -1, 1.5, 2.5, -3, 0.2}, dx[6] = {0};
  __enzyme_autodiff((void *)first_above, enzyme_dup, x, dx, enzyme_const, 6, enzyme_const, 2.0);
  CHECK("dfirst", dx[2], 2 * x[2] * 3, 1e-12);
  for (int i = 0; i < 6; i++) if (i != 2) CHECK("dfirst zero", dx[i], 0, 0);
  double dy[6] = {0};
  __enzyme_autodiff((void *)two_exits, x, dy, 6);
  for (int i = 0; i < 6; i++) CHECK("dtwo fd", dy[i], FD(x[i], two_exits(x, 6), 1e-7), 1e-6);
  CHECK_DONE();
}
