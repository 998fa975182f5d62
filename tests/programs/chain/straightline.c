// A straight-line function of about 800 libm calls (with a loop and an
// array in the middle), differentiated in reverse mode with the chain
// threshold lowered to 32 calls: the augmented and reverse functions are
// cut into chains of functions (src/ir/outline.rs, cpp/chain.cc). The
// gradient is checked against central differences.
// FLAGS: -fplugin=%plugin -mllvm -enzyme-rs-chunk-calls=32
#include "check.h"
typedef struct {
  double a, b, c, d;
} G;
G __enzyme_autodiff_g(void *, ...);
// Five calls; the map is a contraction, so values stay in [-2, 2].
#define STEP                                                                    \
  a = 0.5 * sin(b) + 0.4 * a * c;                                               \
  b = exp(-0.1 * c * c) * 0.8 + 0.1 * d;                                        \
  c = cos(d) * 0.6 - 0.2 * a;                                                   \
  d = 0.7 * d + 0.3 * tanh(a * b) + 0.05 * log(1.0 + b * b);
#define R4(x) x x x x
#define R16(x) R4(R4(x))
double f(double a, double b, double c, double d) {
  R16(R4(STEP))
  double t[4] = {a, b, c, d};
  for (int i = 0; i < 3; i++)
    t[i % 4] = t[(i + 1) % 4] * 0.9 + sin(t[i % 4]) * 0.1;
  a = t[0], b = t[1], c = t[2], d = t[3];
  R16(R4(STEP))
  return a + 2.0 * b + 3.0 * c + 4.0 * d;
}
int main(void) {
  double x[4] = {0.3, -0.2, 0.7, 0.45};
  G r = __enzyme_autodiff_g((void *)f, x[0], x[1], x[2], x[3]);
  double g[4] = {r.a, r.b, r.c, r.d};
  for (int k = 0; k < 4; k++) {
    double y[4] = {x[0], x[1], x[2], x[3]};
    CHECK("grad", g[k], FD(y[k], f(y[0], y[1], y[2], y[3]), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
