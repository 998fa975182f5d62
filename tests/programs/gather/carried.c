// The heat stencil on restrict pointers: at -O1 and above clang carries
// a[i+1] to the next iteration in a register, so the reverse carries that
// adjoint in a register too (a phi), and the gather form recomputes it
// from the previous iteration (the first one's guarded). Counting up and
// down, sizes around the stencil's span; against central finite
// differences.
#include "../check.h"
#include <string.h>

#define MAXN 40

static int n;

__attribute__((noinline)) static void up(const double *restrict a, double *restrict b) {
  for (int i = 1; i <= n; i++)
    b[i] = a[i] + 0.25 * (a[i - 1] - 2 * a[i] + a[i + 1]);
}

__attribute__((noinline)) static void down(const double *restrict a, double *restrict b) {
  for (int i = n; i >= 1; i--)
    b[i] = 0.5 * a[i] + 0.3 * a[i - 1] + 0.2 * a[i + 1] * a[i + 1];
}

static double f(const double *u) {
  double a[MAXN + 2], b[MAXN + 2];
  a[0] = a[n + 1] = b[0] = b[n + 1] = 0.0;
  for (int i = 0; i < n; i++)
    a[i + 1] = u[i];
  up(a, b);
  down(b, a);
  up(a, b);
  double r = 0;
  for (int i = 1; i <= n; i++)
    r += (1.0 + 0.1 * i) * b[i] * b[i];
  return r;
}

int main(void) {
  int sizes[] = {1, 2, 3, 4, 5, 40};
  for (int t = 0; t < 6; t++) {
    n = sizes[t];
    double u[MAXN], du[MAXN];
    for (int i = 0; i < n; i++) {
      u[i] = cos(0.5 * i + 0.2);
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
