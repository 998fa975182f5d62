// Reverse: a noinline callee that reads one pointer and updates another,
// called several times with different (and aliasing-free) pointers,
// including pointers into the middle of arrays.
#include "check.h"
__attribute__((noinline)) static void axpy_sq(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] += a * x[i] * x[i];
}
__attribute__((noinline)) static double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}
double f(double *u, double *v, double a) {
  double w[4] = {1, 1, 1, 1};
  axpy_sq(a, u, w, 4);
  axpy_sq(a * a, v, w, 4);
  axpy_sq(2.0, u + 2, v, 2); /* modifies v[0..1] */
  return dot(w, w, 4) + dot(u, v, 4);
}
static double fw(const double *u0, const double *v0, double a) {
  double u[4], v[4];
  for (int i = 0; i < 4; i++) u[i] = u0[i], v[i] = v0[i];
  return f(u, v, a);
}
int main(void) {
  double u[4] = {0.5, -0.2, 1.1, 0.7}, v[4] = {0.3, 0.9, -0.4, 1.5}, a = 0.6;
  double uc[4], vc[4], du[4] = {0}, dv[4] = {0};
  for (int i = 0; i < 4; i++) uc[i] = u[i], vc[i] = v[i];
  double da = __enzyme_autodiff((void *)f, enzyme_dup, uc, du, enzyme_dup, vc, dv, enzyme_out, a);
  for (int i = 0; i < 4; i++) {
    CHECK("du fd", du[i], FD(u[i], fw(u, v, a), 1e-6), 1e-6);
    CHECK("dv fd", dv[i], FD(v[i], fw(u, v, a), 1e-6), 1e-6);
  }
  CHECK("da fd", da, FD(a, fw(u, v, a), 1e-6), 1e-6);
  CHECK_DONE();
}
