// Reverse mode through libm calls whose results are overwritten unused
// (at -O2 LibCallsShrinkWrap keeps them behind errno range guards; the
// augmented clone drops them): the gradient is that of the live chain,
// checked against central differences; double and float calls, one guard
// whose range check fires (exp(800 c) overflows), and a loop.
#include "check.h"
typedef struct {
  double a, b, c;
} G;
G __enzyme_autodiff_g(void *, ...);
double f(double a, double b, double c) {
  a = sin(b) * c;            // dead: a is overwritten below
  a = exp(0.01 * b) * c + a; // live
  b = exp(800.0 * c);        // dead, overflows (errno ERANGE)
  b = cos(a) + 0.5 * c;
  c = log(a * a + 1.0); // dead
  c = b * a + 0.25;
  float t = expf((float)c) + sqrtf((float)b); // dead
  (void)t;
  for (int i = 0; i < 3; i++) {
    a = tanh(a) + b * c;
    double u = atan(a); // dead in the loop
    (void)u;
    c = pow(a * a + 1.0, 0.5) * b;
  }
  return a + b + c;
}
int main(void) {
  double x[3] = {0.3, 0.7, 0.95};
  G r = __enzyme_autodiff_g((void *)f, x[0], x[1], x[2]);
  double g[3] = {r.a, r.b, r.c};
  for (int k = 0; k < 3; k++) {
    double y[3] = {x[0], x[1], x[2]};
    CHECK("grad", g[k], FD(y[k], f(y[0], y[1], y[2]), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
