// Reverse: the number of time steps is computed from an active value
// (steps = ceil(T / h)); the last step is shortened to land on T. The
// derivative w.r.t. T flows through the shortened step only.
#include "check.h"
double decay(double y0, double k, double T) {
  double h = 0.01;
  int steps = (int)ceil(T / h);
  double y = y0, t = 0;
  for (int s = 0; s < steps; s++) {
    double dt = (t + h > T) ? T - t : h;
    double k1 = -k * y, k2 = -k * (y + 0.5 * dt * k1);
    y += dt * k2;
    t += dt;
  }
  return y;
}
typedef struct { double dy0, dk, dT; } D3;
D3 __enzyme_autodiff_d(void *, double, double, double);
int main(void) {
  double y0 = 2.0, k = 0.7, T = 1.234;
  D3 d = __enzyme_autodiff_d((void *)decay, y0, k, T);
  CHECK("dy0 fd", d.dy0, FD(y0, decay(y0, k, T), 1e-6), 1e-6);
  CHECK("dk fd", d.dk, FD(k, decay(y0, k, T), 1e-6), 1e-6);
  CHECK("dT fd", d.dT, FD(T, decay(y0, k, T), 1e-7), 1e-5);
  CHECK("dT ~ -k y", d.dT, -k * decay(y0, k, T), 1e-3);
  CHECK_DONE();
}
