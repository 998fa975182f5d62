// A static noinline helper gets LLVM's fast calling convention at -O1+;
// its derivative must be called consistently.
#include "check.h"
static __attribute__((noinline)) double helper(double x, double y) { return x * x * y + sin(y); }
static __attribute__((noinline)) void fft_like(double *v, int n) {
  if (n == 1) return;
  fft_like(v, n / 2);
  fft_like(v + n / 2, n / 2);
  for (int i = 0; i < n / 2; i++) {
    double a = v[i], b = v[i + n / 2];
    v[i] = a + b * 0.5;
    v[i + n / 2] = a - b * 0.5;
  }
}
double f(double x) { return helper(x, 2.0) + helper(3.0, x); }
double g(double *v) {
  fft_like(v, 8);
  double s = 0;
  for (int i = 0; i < 8; i++) s += v[i] * v[i] * (i + 1);
  return s;
}
int main(void) {
  double x = 1.3;
  CHECK("fwd", __enzyme_fwddiff((void *)f, x, 1.0), FD(x, f(x), 1e-6), 1e-6);
  CHECK("rev", __enzyme_autodiff((void *)f, x), FD(x, f(x), 1e-6), 1e-6);
  double v[8], dv[8] = {0}, tv[8] = {0};
  for (int k = 0; k < 8; k++) {
    for (int i = 0; i < 8; i++) { v[i] = 0.1 * i + 0.3; dv[i] = (i == k); }
    double t = __enzyme_fwddiff((void *)g, enzyme_dup, v, dv);
    for (int i = 0; i < 8; i++) v[i] = 0.1 * i + 0.3;
    double w[8];
    for (int i = 0; i < 8; i++) w[i] = v[i];
    w[k] += 1e-6;
    double fp = g(w);
    for (int i = 0; i < 8; i++) w[i] = v[i];
    w[k] -= 1e-6;
    double fm = g(w);
    CHECK("fwd fft-like", t, (fp - fm) / 2e-6, 1e-5);
    tv[k] = t;
  }
  for (int i = 0; i < 8; i++) v[i] = 0.1 * i + 0.3;
  __enzyme_autodiff((void *)g, enzyme_dup, v, dv);
  CHECK_DONE();
}
