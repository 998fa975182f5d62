// LEVELS: O0 O1 O2 O3
// The gradient is the same with and without the shared cache for identical
// loads (see lit/reverse/dedup_loads.ll for the tape size).
#include "check.h"
double sumsq_then_reset(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] + x[i];
  x[0] = 0;
  return s;
}
int main(void) {
  double x[5] = {0.5, -1, 2, 3.5, 0.25}, dx[5] = {0};
  double y[5];
  for (int k = 0; k < 5; k++) y[k] = x[k];
  __enzyme_autodiff((void *)sumsq_then_reset, enzyme_dup, x, dx, enzyme_const, 5);
  for (int k = 0; k < 5; k++) {
    double z[5];
    double h = 1e-6;
    for (int m = 0; m < 5; m++) z[m] = y[m];
    z[k] += h;
    double fp = sumsq_then_reset(z, 5);
    for (int m = 0; m < 5; m++) z[m] = y[m];
    z[k] -= h;
    double fm = sumsq_then_reset(z, 5);
    char nm[32];
    snprintf(nm, sizeof nm, "dx[%d]", k);
    CHECK(nm, dx[k], 2 * y[k] + 1, 1e-12);
    CHECK(nm, dx[k], (fp - fm) / (2 * h), 1e-6);
  }
  CHECK_DONE();
}
