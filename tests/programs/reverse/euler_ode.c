// Reverse mode: explicit Euler integration of a damped oscillator, loss on
// the final state; gradient w.r.t. initial state and parameters.
#include "check.h"
typedef struct { double a, b, c; } R3;
R3 __enzyme_autodiff3(void *, ...);
double simulate(double x0, double v0, double k, int steps) {
  double x = x0, v = v0, dt = 0.01;
  for (int i = 0; i < steps; i++) {
    double a = -k * x - 0.1 * v;
    x += dt * v;
    v += dt * a;
  }
  return x * x + 0.5 * v * v;
}
int main(void) {
  double x0 = 1, v0 = 0.2, k = 4;
  R3 r = __enzyme_autodiff3((void *)simulate, x0, v0, k, 200);
  CHECK("dx0", r.a, FD(x0, simulate(x0, v0, k, 200), 1e-6), 1e-6);
  CHECK("dv0", r.b, FD(v0, simulate(x0, v0, k, 200), 1e-6), 1e-6);
  CHECK("dk", r.c, FD(k, simulate(x0, v0, k, 200), 1e-6), 1e-6);
  CHECK_DONE();
}
