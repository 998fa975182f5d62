// Reverse mode: enzyme_const on floating-point scalars.
#include "check.h"
typedef struct { double a, b; } R2;
R2 __enzyme_autodiff2(void *, ...);
double f(double a, double k, double b, float c) { return a * k * k + exp(b * k) * c; }
int main(void) {
  double a = 1.2, k = 0.6, b = -0.4;
  float c = 2.5f;
  R2 r = __enzyme_autodiff2((void *)f, enzyme_out, a, enzyme_const, k, enzyme_out, b,
                            enzyme_const, c);
  CHECK("da", r.a, k * k, 1e-12);
  CHECK("db", r.b, k * exp(b * k) * c, 1e-12);
  double d = __enzyme_autodiff((void *)f, enzyme_const, a, enzyme_out, k, enzyme_const, b,
                               enzyme_const, c);
  CHECK("dk", d, 2 * a * k + b * exp(b * k) * c, 1e-12);
  CHECK_DONE();
}
