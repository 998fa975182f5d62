// 5-point stencils: a linear one (its reverse accumulates into the
// input's shadow at five offsets: the gather form applies) and a
// nonlinear one (its contributions read primal values from the tape: not
// applied). Against central finite differences; the shadow starts
// non-zero (the accumulation into it is kept).
#include "../check.h"

#define N 40

__attribute__((noinline)) static void lin(const double *a, double *b, int n) {
  for (int i = 2; i < n - 2; i++)
    b[i] = 0.1 * a[i - 2] - 0.2 * a[i - 1] + 1.5 * a[i] - 0.3 * a[i + 1] + 0.05 * a[i + 2];
}

__attribute__((noinline)) static void step(const double *a, double *b, int n) {
  for (int i = 2; i < n - 2; i++)
    b[i] = 0.1 * a[i - 2] + sin(a[i - 1]) + a[i] * a[i] - 0.3 * cos(a[i + 1]) + 0.05 * a[i + 2] * a[i];
}

static double f(const double *a) {
  double b[N] = {0}, c[N] = {0};
  lin(a, c, N);
  step(c, b, N);
  double r = 0;
  for (int i = 0; i < N; i++)
    r += (0.5 + 0.01 * i) * b[i] * b[i];
  return r;
}

int main(void) {
  double a[N], da[N];
  for (int i = 0; i < N; i++) {
    a[i] = 0.3 * cos(0.9 * i);
    da[i] = 0.5 * i;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, a, da);
  for (int i = 0; i < N; i++) {
    char name[32];
    snprintf(name, sizeof name, "da[%d]", i);
    CHECK(name, da[i] - 0.5 * i, FD(a[i], f(a), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
