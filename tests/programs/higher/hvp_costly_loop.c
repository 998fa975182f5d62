// Forward over reverse of a function whose loop keeps a large tape per
// iteration, the kind the automatic re-run (rerun.rs) takes at -O1+ for a
// first-order gradient. In a module whose derivatives are differentiated
// again there is no re-run (reverse mode cannot go through its runtime;
// forward mode can, but the outer derivative may lack the tangent of a
// pointer the re-run's step keeps, an error the user did not ask for):
// the Hessian-vector product must compile and match central differences
// of the gradient, and the gradient (also called on its own) central
// differences of the function.
#include "../check.h"
#include <stdlib.h>
#include <string.h>

#define D 24
#define NPTS 3

static double energy(const double *x, const double *m, int n) {
  double *xc = malloc(sizeof(double) * D), *q = malloc(sizeof(double) * D);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < D; j++)
      xc[j] = x[i * D + j] - m[j];
    for (int col = 0; col < D; col++) {
      double r = xc[col];
      for (int row = 0; row < D; row++)
        r = sin(r * m[row]) + 0.5 * xc[row];
      q[col] = r;
    }
    for (int j = 0; j < D; j++)
      s += q[j] * xc[j];
  }
  free(xc);
  free(q);
  return s;
}

__attribute__((noinline)) static void grad(const double *x, double *gx, const double *m, int n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, gx, enzyme_const, m, enzyme_const, n);
}

int main(void) {
  double x[NPTS * D], v[NPTS * D], m[D];
  for (int i = 0; i < NPTS * D; i++) {
    x[i] = 0.3 * sin(0.7 * i) + 0.1;
    v[i] = cos(0.3 * i);
  }
  for (int j = 0; j < D; j++)
    m[j] = 0.2 + 0.05 * j;
  // The gradient alone, against central differences of the function.
  double g[NPTS * D] = {0};
  grad(x, g, m, NPTS);
  char name[64];
  for (int i = 0; i < NPTS * D; i += 5) {
    snprintf(name, sizeof name, "g[%d] fd", i);
    CHECK(name, g[i], FD(x[i], energy(x, m, NPTS), 1e-6), 1e-6);
  }
  // Forward over reverse: the gradient and its directional derivative.
  double g2[NPTS * D] = {0}, hv[NPTS * D] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g2, hv, enzyme_const, m,
                   enzyme_const, NPTS);
  // Central differences of the gradient along v.
  const double h = 1e-6;
  double xp[NPTS * D], xm[NPTS * D], gp[NPTS * D] = {0}, gm[NPTS * D] = {0};
  for (int i = 0; i < NPTS * D; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  grad(xp, gp, m, NPTS);
  grad(xm, gm, m, NPTS);
  for (int i = 0; i < NPTS * D; i++) {
    snprintf(name, sizeof name, "g2[%d]", i);
    CHECK(name, g2[i], g[i], 1e-12);
    snprintf(name, sizeof name, "Hv[%d] fd", i);
    CHECK(name, hv[i], (gp[i] - gm[i]) / (2 * h), 1e-5);
  }
  CHECK_DONE();
}
