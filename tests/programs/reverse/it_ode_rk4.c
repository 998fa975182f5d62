// Reverse: RK4 integration of a damped, forced oscillator for many steps;
// gradient of the final position w.r.t. the parameters and initial state.
#include "check.h"
static void rhs(const double *p, double t, const double *u, double *du) {
  du[0] = u[1];
  du[1] = -p[0] * u[0] - p[1] * u[1] + p[2] * sin(t);
}
__attribute__((noinline)) double integrate(const double *p, double *u0, int steps) {
  double u[2] = {u0[0], u0[1]}, h = 5.0 / steps, t = 0;
  for (int s = 0; s < steps; s++) {
    double k1[2], k2[2], k3[2], k4[2], tmp[2];
    rhs(p, t, u, k1);
    for (int i = 0; i < 2; i++) tmp[i] = u[i] + 0.5 * h * k1[i];
    rhs(p, t + 0.5 * h, tmp, k2);
    for (int i = 0; i < 2; i++) tmp[i] = u[i] + 0.5 * h * k2[i];
    rhs(p, t + 0.5 * h, tmp, k3);
    for (int i = 0; i < 2; i++) tmp[i] = u[i] + h * k3[i];
    rhs(p, t + h, tmp, k4);
    for (int i = 0; i < 2; i++) u[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    t += h;
  }
  return u[0] * u[0] + 0.1 * u[1];
}
int main(void) {
  double p[3] = {4.0, 0.3, 1.2}, dp[3] = {0}, u0[2] = {1.0, 0.0}, du0[2] = {0};
  __enzyme_autodiff((void *)integrate, enzyme_dup, p, dp, enzyme_dup, u0, du0, enzyme_const, 200);
  for (int i = 0; i < 3; i++) CHECK("dp fd", dp[i], FD(p[i], integrate(p, u0, 200), 1e-6), 1e-6);
  for (int i = 0; i < 2; i++) CHECK("du0 fd", du0[i], FD(u0[i], integrate(p, u0, 200), 1e-6), 1e-6);
  CHECK_DONE();
}
