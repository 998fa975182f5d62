// Reverse mode: 1-D heat stencil over time steps with two buffers whose
// pointers are swapped each step (pointer phis).
#include "check.h"
enum { N = 8 };
double heat(const double *u0, int steps, double alpha) {
  double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = u0[i];
  double *cur = a, *nxt = b;
  for (int t = 0; t < steps; t++) {
    nxt[0] = cur[0];
    nxt[N - 1] = cur[N - 1];
    for (int i = 1; i < N - 1; i++) nxt[i] = cur[i] + alpha * (cur[i - 1] - 2 * cur[i] + cur[i + 1]);
    double *tmp = cur; cur = nxt; nxt = tmp;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += cur[i] * cur[i] * (i + 1);
  return s;
}
int main(void) {
  double u[N], du[N] = {0}, alpha = 0.2;
  for (int i = 0; i < N; i++) u[i] = sin(i * 0.8);
  double dalpha = __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_const, 5, enzyme_out, alpha);
  for (int i = 0; i < N; i++) CHECK("du fd", du[i], FD(u[i], heat(u, 5, alpha), 1e-6), 1e-6);
  CHECK("dalpha fd", dalpha, FD(alpha, heat(u, 5, alpha), 1e-6), 1e-6);
  CHECK_DONE();
}
