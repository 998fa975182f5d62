// Higher order across files: forward mode (here) over a gradient function
// in grad.c, whose own __enzyme_autodiff call names a function of its own
// file (done when grad.c is compiled): a Hessian-vector product.
#include "check.h"
void grad(const double *x, double *g);
int main(void) {
  double x[2] = {0.7, -0.4}, v[2] = {1.0, 0.5}, g[2], hv[2];
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv);
  /* f = x0^2 x1 + sin(x0 x1): H v by finite differences of the gradient */
  for (int i = 0; i < 2; i++) {
    double xp[2] = {x[0] + 1e-6 * v[0], x[1] + 1e-6 * v[1]}, gp[2];
    double xm[2] = {x[0] - 1e-6 * v[0], x[1] - 1e-6 * v[1]}, gm[2];
    grad(xp, gp);
    grad(xm, gm);
    CHECK("Hv fd", hv[i], (gp[i] - gm[i]) / 2e-6, 1e-6);
  }
  CHECK_DONE();
}
