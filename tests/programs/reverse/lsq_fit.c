// Reverse mode: least-squares residual of a model a*exp(b*t)+c over
// constant data (enzyme_const arrays), gradient w.r.t. three active params.
#include "check.h"
typedef struct { double a, b, c; } R3;
R3 __enzyme_autodiff3(void *, ...);
double resid(double a, double b, double c, const double *t, const double *y, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    double e = a * exp(b * t[i]) + c - y[i];
    r += e * e;
  }
  return 0.5 * r;
}
int main(void) {
  double t[6], y[6];
  for (int i = 0; i < 6; i++) { t[i] = 0.2 * i; y[i] = 2 * exp(-0.7 * t[i]) + 0.1 * (i % 2); }
  double a = 1.5, b = -0.5, c = 0.2;
  R3 r = __enzyme_autodiff3((void *)resid, a, b, c, enzyme_const, t, enzyme_const, y, 6);
  CHECK("da", r.a, FD(a, resid(a, b, c, t, y, 6), 1e-6), 1e-7);
  CHECK("db", r.b, FD(b, resid(a, b, c, t, y, 6), 1e-6), 1e-7);
  CHECK("dc", r.c, FD(c, resid(a, b, c, t, y, 6), 1e-6), 1e-7);
  CHECK_DONE();
}
