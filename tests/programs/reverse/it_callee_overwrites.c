// Reverse: a noinline callee called in a loop overwrites its argument
// array each time (softmax-like normalization in place); the reverse
// sweep needs each call's inputs although memory was overwritten.
#include "check.h"
__attribute__((noinline)) static void normalize(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  s = sqrt(s);
  for (int i = 0; i < n; i++) v[i] = v[i] / s + 0.1 * sin(v[i]);
}
__attribute__((noinline)) double iterate(double *v, const double *w, int n, int iters) {
  for (int t = 0; t < iters; t++) {
    for (int i = 0; i < n; i++) v[i] += w[i] * (t + 1);
    normalize(v, n);
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += v[i] * (i + 1);
  return r;
}
static double wrap(const double *v0, const double *w, int n, int iters) {
  double v[8];
  for (int i = 0; i < n; i++) v[i] = v0[i];
  return iterate(v, w, n, iters);
}
int main(void) {
  enum { N = 4 };
  double v0[N] = {0.3, -0.5, 0.8, 0.1}, w[N] = {0.2, 0.1, -0.3, 0.4};
  double v[N], dv[N] = {0}, dw[N] = {0};
  for (int i = 0; i < N; i++) v[i] = v0[i];
  __enzyme_autodiff((void *)iterate, enzyme_dup, v, dv, enzyme_dup, w, dw, enzyme_const, N, enzyme_const, 5);
  for (int i = 0; i < N; i++) {
    CHECK("dv fd", dv[i], FD(v0[i], wrap(v0, w, N, 5), 1e-6), 1e-6);
    CHECK("dw fd", dw[i], FD(w[i], wrap(v0, w, N, 5), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
