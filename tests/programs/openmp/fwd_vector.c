// FLAGS: -fopenmp
// THREADS: 1 2 4
// Vector forward mode (3 directions at once) through a parallel region.
#include "check.h"
#define N 50

double f(const double *x, double a, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += a * x[i] * x[i] + sin(a * x[i]);
  return s;
}

typedef struct {
  double d[3];
} v3;
extern v3 __enzyme_fwddiff_v3(void *, ...);

int main(void) {
  double x[N], d0[N], d1[N], d2[N];
  for (int i = 0; i < N; i++) {
    x[i] = 0.04 * i - 1;
    d0[i] = 1.0;
    d1[i] = i % 2;
    d2[i] = 0.0;
  }
  double a = 0.9;
  v3 r = __enzyme_fwddiff_v3((void *)f, enzyme_width, 3, enzyme_dup, x, d0, d1, d2, a, 0.0,
                             0.0, 1.0, enzyme_const, N);
  double w[3] = {0, 0, 0};
  for (int i = 0; i < N; i++) {
    double gx = 2 * a * x[i] + a * cos(a * x[i]);
    w[0] += gx;
    w[1] += (i % 2) * gx;
    w[2] += x[i] * x[i] + x[i] * cos(a * x[i]);
  }
  for (int k = 0; k < 3; k++) CHECK("lane", r.d[k], w[k], 1e-11);
  CHECK_DONE();
}
