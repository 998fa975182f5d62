// Reverse: explicit heat equation time stepping; each step computes into a
// scratch array and copies it back with memcpy (the state is overwritten
// every step, so the reverse sweep needs every step's values).
#include "check.h"
#include <string.h>
__attribute__((noinline)) double heat(double *u, const double *k, int n, int steps) {
  double *t = (double *)malloc(n * sizeof(double));
  for (int s = 0; s < steps; s++) {
    t[0] = u[0];
    t[n - 1] = u[n - 1];
    for (int i = 1; i < n - 1; i++) t[i] = u[i] + k[i] * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * u[i] * u[i];
    memcpy(u, t, n * sizeof(double));
  }
  free(t);
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i] * (i + 1);
  return e;
}
static double heat_copy(const double *u0, const double *k, int n, int steps) {
  double u[16];
  memcpy(u, u0, n * sizeof(double));
  return heat(u, k, n, steps);
}
int main(void) {
  enum { N = 8 };
  double u0[N] = {0, 0.5, 1.0, 0.8, 0.2, -0.3, 0.1, 0}, k[N] = {0, 0.2, 0.15, 0.25, 0.1, 0.2, 0.3, 0};
  double u[N], du[N] = {0}, dk[N] = {0};
  memcpy(u, u0, sizeof u);
  __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_dup, k, dk, enzyme_const, N, enzyme_const, 25);
  for (int i = 0; i < N; i++) {
    CHECK("du fd", du[i], FD(u0[i], heat_copy(u0, k, N, 25), 1e-6), 1e-6);
    CHECK("dk fd", dk[i], FD(k[i], heat_copy(u0, k, N, 25), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
