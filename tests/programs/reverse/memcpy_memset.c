// Reverse mode: memcpy and memset of active arrays.
#include "check.h"
#include <string.h>
double f(const double *x, int n) {
  double t[8], u[8];
  memset(t, 0, sizeof t);
  memcpy(t + 1, x, n * sizeof(double));
  memcpy(u, t, sizeof u);
  double s = 0;
  for (int i = 0; i < 8; i++) s += u[i] * u[i] * (i + 1);
  memset(u, 0, sizeof u);
  return s + u[3];
}
void g(double *y, const double *x, int n) {
  memcpy(y, x, n * sizeof(double));
  memset(y, 0, sizeof(double)); /* y[0] no longer depends on x[0] */
  for (int i = 0; i < n; i++) y[i] *= 2;
}
int main(void) {
  double x[5] = {1, -2, 0.5, 3, 0.25}, dx[5] = {0};
  __enzyme_autodiff((void *)f, x, dx, 5);
  for (int i = 0; i < 5; i++) CHECK("dmemcpy", dx[i], 2 * x[i] * (i + 2), 1e-12);
  double y[5], dy[5] = {1, 1, 1, 1, 1}, dx2[5] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, y, dy, enzyme_dup, x, dx2, enzyme_const, 5);
  CHECK("dmemset", dx2[0], 0, 0);
  for (int i = 1; i < 5; i++) CHECK("dmemcpy2", dx2[i], 2, 1e-12);
  CHECK_DONE();
}
