// FLAGS: -fopenmp
// THREADS: 1 2 4
// Calls to differentiated functions inside a parallel region (one writes
// through a pointer, one returns a value), reverse and forward.
#include "check.h"
#define N 90

__attribute__((noinline)) static double g(double a, double b) { return a * sin(b) + b * b; }
__attribute__((noinline)) static void h(const double *in, double *out, double k) {
  *out = k * in[0] * in[0];
}

double f(const double *x, double *y, double k, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    h(&x[i], &y[i], k);
    s += g(x[i], y[i]);
  }
  return s;
}

int main(void) {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0};
  double k = 0.8;
  for (int i = 0; i < N; i++) x[i] = 0.02 * i - 0.9;
  double dk = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, k,
                                enzyme_const, N);
  double wk = 0;
  for (int i = 0; i < N; i++) {
    double yi = k * x[i] * x[i];
    double dg_dy = x[i] * cos(yi) + 2 * yi;
    CHECK("dx", dx[i], sin(yi) + dg_dy * 2 * k * x[i], 1e-11);
    wk += dg_dy * x[i] * x[i];
  }
  CHECK("dk", dk, wk, 1e-11);
  CHECK("dk fd", dk, FD(k, f(x, y, k, N), 1e-6), 1e-6);
  // forward along dk = 1
  double tx[N] = {0}, ty[N] = {0};
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty, k, 1.0,
                              enzyme_const, N);
  CHECK("fwd dk", t, wk, 1e-11);
  CHECK_DONE();
}
