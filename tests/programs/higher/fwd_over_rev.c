// Forward over reverse: the tangent of a gradient (Hessian-vector products)
// by __enzyme_fwddiff of a function that calls __enzyme_autodiff; checked
// against central differences of the gradient.
// LEVELS: O0 O1 O2 O3
#include "check.h"

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[(i + 1) % n] + x[i] * x[i] * x[i];
  return s * exp(0.1 * x[0]);
}

/* dx += grad f(x) */
void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}

double g(double x, double y) { return x * x * sin(y) + exp(x * y); }
double dgdx(double x, double y) {
  typedef struct { double dx, dy; } d2;
  extern d2 __enzyme_autodiff_g(void *, double, double);
  return __enzyme_autodiff_g((void *)g, x, y).dx;
}

int main(void) {
  enum { n = 4 };
  double x[n] = {0.3, -0.5, 0.8, 0.1}, v[n] = {1.0, 0.5, -2.0, 0.25};
  double dx[n] = {0}, hv[n] = {0};
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, dx, hv, enzyme_const, n);
  /* (grad(x + h v) - grad(x - h v)) / 2h */
  double h = 1e-6, gp[n] = {0}, gm[n] = {0}, xp[n], xm[n];
  for (int i = 0; i < n; i++) xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  grad(xp, gp, n);
  grad(xm, gm, n);
  for (int i = 0; i < n; i++) CHECK("Hv", hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  double g0[n] = {0};
  grad(x, g0, n);
  for (int i = 0; i < n; i++) CHECK("grad kept", dx[i], g0[i], 1e-12);

  /* scalar: d/dx and d/dy of dg/dx */
  double a = 0.7, b = -0.4;
  double gxx = __enzyme_fwddiff((void *)dgdx, a, 1.0, b, 0.0);
  double gxy = __enzyme_fwddiff((void *)dgdx, a, 0.0, b, 1.0);
  CHECK("gxx", gxx, FD(a, dgdx(a, b), 1e-6), 1e-6);
  CHECK("gxy", gxy, FD(b, dgdx(a, b), 1e-6), 1e-6);
  CHECK_DONE();
}
