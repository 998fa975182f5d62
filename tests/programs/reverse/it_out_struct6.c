// Reverse: six active doubles (enzyme_out) mixed with const ints and a
// dup pointer; the derivatives come back as a struct of six doubles.
#include "check.h"
typedef struct { double a, b, c, d, e, f; } D6;
D6 __enzyme_autodiff_6(void *, ...);
double f(double a, int k, double b, double c, const double *w, double d, double e, double g) {
  double s = a * b + c * k + exp(d * e) - g / (1 + a * a);
  for (int i = 0; i < k; i++) s += w[i] * (a - b * i) * g;
  return s;
}
int main(void) {
  double a = 0.3, b = -1.2, c = 2.0, d = 0.4, e = 0.9, g = 1.7;
  double w[3] = {0.5, 1.0, -2.0}, dw[3] = {0};
  D6 r = __enzyme_autodiff_6((void *)f, enzyme_out, a, enzyme_const, 3, enzyme_out, b, enzyme_out, c,
                             enzyme_dup, w, dw, enzyme_out, d, enzyme_out, e, enzyme_out, g);
  CHECK("da", r.a, FD(a, f(a, 3, b, c, w, d, e, g), 1e-6), 1e-6);
  CHECK("db", r.b, FD(b, f(a, 3, b, c, w, d, e, g), 1e-6), 1e-6);
  CHECK("dc", r.c, 3, 1e-12);
  CHECK("dd", r.d, e * exp(d * e), 1e-12);
  CHECK("de", r.e, d * exp(d * e), 1e-12);
  CHECK("dg", r.f, FD(g, f(a, 3, b, c, w, d, e, g), 1e-6), 1e-6);
  for (int i = 0; i < 3; i++) CHECK("dw", dw[i], (a - b * i) * g, 1e-12);
  CHECK_DONE();
}
