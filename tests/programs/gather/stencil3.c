// A 3-point stencil (the heat equation's) applied a few steps, then a
// weighted sum of squares: its reverse accumulates into the shadow of the
// input at i-1, i, i+1 (the gather form, src/modes/reverse/gather.rs).
// Sizes below and above the stencil's span; every component against a
// central finite difference.
#include "../check.h"
#include <string.h>

#define MAXN 64

static int n;

__attribute__((noinline)) static void step(const double *a, double *b) {
  for (int i = 1; i <= n; i++)
    b[i] = a[i] + 0.25 * (a[i - 1] - 2 * a[i] + a[i + 1]);
}

static double f(const double *u) {
  double a[MAXN + 2], b[MAXN + 2];
  a[0] = a[n + 1] = b[0] = b[n + 1] = 0.0;
  for (int i = 0; i < n; i++)
    a[i + 1] = u[i];
  for (int s = 0; s < 3; s++) {
    step(a, b);
    memcpy(a + 1, b + 1, sizeof(double) * n);
  }
  double r = 0;
  for (int i = 1; i <= n; i++)
    r += (1.0 + 0.1 * i) * a[i] * a[i];
  return r;
}

int main(void) {
  int sizes[] = {1, 2, 3, 4, 17, 64};
  for (int t = 0; t < 6; t++) {
    n = sizes[t];
    double u[MAXN], du[MAXN];
    for (int i = 0; i < n; i++) {
      u[i] = sin(0.7 * i + 0.3);
      du[i] = 0;
    }
    __enzyme_autodiff((void *)f, enzyme_dup, u, du);
    for (int i = 0; i < n; i++) {
      char name[32];
      snprintf(name, sizeof name, "n=%d du[%d]", n, i);
      CHECK(name, du[i], FD(u[i], f(u), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
