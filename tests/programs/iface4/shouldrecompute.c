// __enzyme_shouldrecompute: a registered function's result, needed by the
// reverse sweep, is computed again there (the function is called again)
// instead of being taped. `heavy` counts its calls: registered, it runs
// once per iteration in the forward sweep and once more in the reverse;
// `plain` (not registered) runs once and its results are taped. The
// gradients are checked against analytic values and finite differences.
#include "check.h"
static int heavy_calls = 0, plain_calls = 0;
__attribute__((noinline)) double heavy(double x) {
  heavy_calls++;
  return exp(x) * x + sin(x);
}
__attribute__((noinline)) double plain(double x) {
  plain_calls++;
  return exp(x) * x + sin(x);
}
void *__enzyme_shouldrecompute[] = {(void *)heavy};
static double dh(double x) { return exp(x) * (x + 1) + cos(x); }

static double loss(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double h = heavy(x[i]);
    s += h * h * x[i];
  }
  return s;
}
static double loss_plain(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double h = plain(x[i]);
    s += h * h * x[i];
  }
  return s;
}
// Two scalar arguments, the result used outside a loop too.
__attribute__((noinline)) double mix(double a, double b) { return a * exp(b) - b * b; }
void *__enzyme_shouldrecompute_mix = (void *)mix;
static double two(double a, double b) {
  double m = mix(a, b);
  return m * m * a + sin(m);
}

int main(void) {
  enum { N = 4 };
  double x[N] = {0.3, -0.8, 1.2, 0.05};
  double dx[N] = {0}, dxp[N] = {0};
  heavy_calls = 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N);
  CHECK("heavy called again in the reverse", heavy_calls, 2 * N, 0);
  plain_calls = 0;
  __enzyme_autodiff((void *)loss_plain, enzyme_dup, x, dxp, enzyme_const, N);
  CHECK("plain taped, not called again", plain_calls, N, 0);
  for (int i = 0; i < N; i++) {
    double h = exp(x[i]) * x[i] + sin(x[i]);
    double want = 2 * h * dh(x[i]) * x[i] + h * h;
    CHECK("d loss", dx[i], want, 1e-12);
    CHECK("d loss fd", dx[i], FD(x[i], loss(x, N), 1e-6), 1e-6);
    CHECK("same as taped", dx[i], dxp[i], 1e-14);
  }
  double a = 0.7, b = -0.4;
  double da = __enzyme_autodiff((void *)two, a, enzyme_const, b);
  CHECK("d two / da fd", da, FD(a, two(a, b), 1e-6), 1e-6);
  double m = mix(a, b);
  double want = (2 * m * a + cos(m)) * exp(b) + m * m;
  CHECK("d two / da", da, want, 1e-12);
  CHECK_DONE();
}
