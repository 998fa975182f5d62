// Offsets on one side only (i, i+1, i+2), and a loop counting down (its
// reverse counts up). Against central finite differences, at several
// lengths (the shortest below the span: the original loop runs).
#include "../check.h"

#define MAXN 48

static int n;

__attribute__((noinline)) static void fwd3(const double *a, double *b) {
  for (int i = 0; i < n; i++)
    b[i] = 2.0 * a[i] - 0.5 * a[i + 1] + 0.25 * a[i + 2];
}

__attribute__((noinline)) static void down(const double *a, double *b) {
  for (int i = n - 1; i >= 1; i--)
    b[i] = a[i] * 3.0 + a[i - 1] - 0.75 * a[i + 1];
}

static double f(const double *u) {
  double b[MAXN + 2], c[MAXN + 2];
  fwd3(u, b);
  b[n] = b[n + 1] = 0;
  c[0] = 0;
  down(b, c);
  double r = 0;
  for (int i = 1; i < n; i++)
    r += c[i] * c[i] * (1.0 + 0.05 * i);
  return r;
}

int main(void) {
  int sizes[] = {2, 3, 5, 33};
  for (int t = 0; t < 4; t++) {
    n = sizes[t];
    double u[MAXN + 2], du[MAXN + 2];
    for (int i = 0; i < n + 2; i++) {
      u[i] = 0.2 + 0.1 * sin(1.3 * i);
      du[i] = 0;
    }
    __enzyme_autodiff((void *)f, enzyme_dup, u, du);
    for (int i = 0; i < n + 2; i++) {
      char name[32];
      snprintf(name, sizeof name, "n=%d du[%d]", n, i);
      CHECK(name, du[i], FD(u[i], f(u), 1e-6), 1e-6);
    }
  }
  CHECK_DONE();
}
