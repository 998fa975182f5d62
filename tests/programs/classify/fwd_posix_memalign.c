// Forward mode through an allocation returned through memory
// (posix_memalign): the tangent slot gets its own zeroed block, as in
// reverse mode. (Before the one call classifier, forward mode skipped the
// call and read an uninitialised tangent pointer at -O0/-O1.)
#include "check.h"
#include <stdlib.h>

double f(const double *x, int n) {
  void *mem = 0;
  if (posix_memalign(&mem, 64, n * sizeof(double)) != 0) return 0;
  double *t = (double *)mem;
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(t[i]);
  free(mem);
  return s;
}

int main(void) {
  double x[4] = {0.3, -0.7, 1.1, 0.05};
  for (int k = 0; k < 4; k++) {
    double dx[4] = {0};
    dx[k] = 1;
    double d = __enzyme_fwddiff((void *)f, x, dx, 4);
    CHECK("d/dx analytic", d, cos(x[k] * x[k]) * 2 * x[k], 1e-12);
    CHECK("d/dx fd", d, FD(x[k], f(x, 4), 1e-6), 1e-6);
  }
  double g[4] = {0};
  __enzyme_autodiff((void *)f, x, g, 4);
  for (int k = 0; k < 4; k++) CHECK("gradient", g[k], cos(x[k] * x[k]) * 2 * x[k], 1e-12);
  CHECK_DONE();
}
