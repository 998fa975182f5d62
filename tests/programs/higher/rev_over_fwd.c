// Reverse over forward: the gradient of a directional derivative by
// __enzyme_autodiff of a function that calls __enzyme_fwddiff; checked
// against central differences of the directional derivative.
// LEVELS: O0 O1 O2 O3
#include "check.h"

double g(double x, double y) { return x * x * sin(y) + exp(x * y) + x / (1 + y * y); }
/* dg/dx by forward mode */
double dgdx(double x, double y) { return __enzyme_fwddiff((void *)g, x, 1.0, y, 0.0); }

double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += cos(x[i]) * x[(i + 1) % n];
  return s * s;
}
/* directional derivative of f along v */
double dir(const double *x, const double *v, int n) {
  double dx[8];
  for (int i = 0; i < n; i++) dx[i] = v[i];
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}

typedef struct { double dx, dy; } d2;
extern d2 __enzyme_autodiff_2(void *, double, double);

int main(void) {
  double a = 0.6, b = 0.3;
  d2 h = __enzyme_autodiff_2((void *)dgdx, a, b);
  CHECK("gxx", h.dx, FD(a, dgdx(a, b), 1e-6), 1e-6);
  CHECK("gxy", h.dy, FD(b, dgdx(a, b), 1e-6), 1e-6);

  enum { n = 3 };
  double x[n] = {0.2, -0.7, 1.1}, v[n] = {1.0, -0.5, 0.3}, gx[n] = {0};
  __enzyme_autodiff((void *)dir, enzyme_dup, x, gx, enzyme_const, v, enzyme_const, n);
  for (int j = 0; j < n; j++) CHECK("H v", gx[j], FD(x[j], dir(x, v, n), 1e-6), 1e-6);
  CHECK_DONE();
}
