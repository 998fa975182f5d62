// Loop shapes whose iteration counts the reverse sweep recomputes from the
// loop bounds (no tape), and branches it recomputes from their conditions:
// strides other than one, counting down, inclusive bounds, unsigned and
// 64-bit counters, bounds read from memory, loops not entered, nested loops
// whose inner bound depends on the outer counter, and if/else on data that
// is overwritten later (that condition must come from the tape).
#include "check.h"

typedef struct { int n; int step; long m; } shape_t;

double shapes(double *x, const shape_t *s) {
  double r = 0;
  for (int i = 0; i < s->n; i += s->step) r += x[i] * x[i];        // stride from memory
  for (int i = s->n - 1; i >= 0; i -= 3) r += sin(x[i]) * x[0];      // down, stride 3
  for (unsigned u = 1; u <= (unsigned)s->n / 2; u++) r += x[u] * x[u - 1]; // inclusive, unsigned
  for (long k = 0; k < s->m; k++) r += exp(0.1 * x[k % s->n]);       // 64-bit bound
  for (int i = 0; i < s->n; i++)                                    // triangular nest
    for (int j = i; j < s->n; j += 2) r += x[i] * x[j] * 0.5;
  for (int i = 0; i < s->n - 100; i++) r += x[i] * 1000;             // never entered
  return r;
}

// Branches: `c` depends on x[0] which is overwritten after the branch.
double branches(double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0) r += x[i] * x[i];
    else r -= 3 * x[i];
    if (i % 3 == 0) r *= 1.01;
    else r += 0.5 * x[i];
  }
  double keep = x[0];
  if (keep > 0.2) r += keep * keep * keep;
  else r += 2 * keep;
  x[0] = 0.0;   // overwrite what the last branch read
  r += x[0];
  return r;
}

int main(void) {
  enum { N = 11 };
  double x[N], dx[N];
  shape_t s = { N, 2, 17 };
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.1 * i * (i % 2 ? -1 : 1);
  for (int step = 1; step <= 3; step++) {
    s.step = step;
    for (int i = 0; i < N; i++) dx[i] = 0;
    __enzyme_autodiff((void *)shapes, enzyme_dup, x, dx, enzyme_const, &s);
    for (int i = 0; i < N; i++) CHECK("shapes", dx[i], FD(x[i], shapes(x, &s), 1e-6), 1e-6);
  }
  for (int sign = 0; sign < 2; sign++) {
    double y[N], dy[N], y0[N];
    for (int i = 0; i < N; i++) { y0[i] = (sign ? 1 : -1) * (0.5 - 0.09 * i); dy[i] = 0; }
    for (int i = 0; i < N; i++) y[i] = y0[i];
    __enzyme_autodiff((void *)branches, enzyme_dup, y, dy, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      double h = 1e-6, yp[N], ym[N];
      for (int k = 0; k < N; k++) yp[k] = ym[k] = y0[k];
      yp[i] += h; ym[i] -= h;
      double fd = (branches(yp, N) - branches(ym, N)) / (2 * h);
      CHECK("branches", dy[i], fd, 1e-6);
    }
  }
  CHECK_DONE();
}
