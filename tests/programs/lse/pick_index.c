// A recorded running selection that carries the picked index rather than
// the picked address (modes/reverse/pickrec.rs `IndexPick`: every value
// loaded from one array, the entry value too, nothing written between the
// entry value's load and the loop), and the cases that keep addresses.
// Checked against analytic values and central differences:
// - entry x[3] (not the first element), picked and not picked;
// - the entry value picked (no element beats x[0]);
// - a loop running downwards from x[n-1];
// - a strided index x[2i];
// - values from two arrays (addresses kept);
// - a store into the array between the entry load and the loop (addresses
//   kept: a reload of the entry's element would read the new value).
#include "check.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double from3(const double *x, int n) {
  double m = x[3];
  for (int i = 0; i < n; i++)
    if (x[i] > m) m = x[i];
  return m * m;
}
static double down(const double *x, int n) {
  double m = x[n - 1];
  for (int i = n - 2; i >= 0; i--)
    if (x[i] < m) m = x[i];
  return 2.0 * m;
}
static double strided(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n / 2; i++)
    if (x[2 * i] > m) m = x[2 * i];
  return sin(m);
}
static double two(const double *x, const double *y, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) {
    if (x[i] > m) m = x[i];
    if (y[i] > m) m = y[i];
  }
  return 3.0 * m;
}
// The copy's first element is overwritten after m reads it.
static double overwritten(const double *x, int n) {
  double *t = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) t[i] = 2.0 * x[i];
  double m = t[0];
  t[0] = -100.0;
  for (int i = 0; i < n; i++)
    if (t[i] > m) m = t[i];
  free(t);
  return m * m;
}

#define N 9
#define GRAD1(f, x, g, n)                                            \
  do {                                                               \
    for (int i_ = 0; i_ < N; i_++) (g)[i_] = 0;                      \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n); \
  } while (0)

int main(void) {
  double x[N] = {1.0, -3.0, 4.0, 0.5, 2.0, -1.0, 4.0, -3.0, 3.5};
  double g[N], gy[N];
  GRAD1(from3, x, g, N);
  for (int i = 0; i < N; i++) CHECK("from3", g[i], i == 2 ? 8.0 : 0.0, 0);
  double big0[N] = {9.0, -3.0, 4.0, 0.5, 2.0, -1.0, 4.0, -3.0, 3.5};
  GRAD1(strided, big0, g, N);
  for (int i = 0; i < N; i++) CHECK("strided entry", g[i], i == 0 ? cos(9.0) : 0.0, 1e-15);
  GRAD1(strided, x, g, N);
  for (int i = 0; i < N; i++) CHECK("strided", g[i], i == 2 ? cos(4.0) : 0.0, 1e-15);
  GRAD1(down, x, g, N);
  for (int i = 0; i < N; i++) CHECK("down", g[i], i == 7 ? 2.0 : 0.0, 0);
  double y[N] = {0.3, 1.7, -0.2, 2.9, 0.1, 3.3, 1.0, -4.0, 3.1};
  GRAD1(from3, y, g, 3);
  for (int i = 0; i < N; i++) CHECK("from3 entry kept", g[i], i == 3 ? 5.8 : 0.0, 1e-15);
  GRAD1(down, y, g, N);
  for (int i = 0; i < N; i++) CHECK("down fd", g[i], FD(y[i], down(y, N), 1e-6), 1e-6);
  GRAD1(from3, y, g, N);
  for (int i = 0; i < N; i++) CHECK("from3 fd", g[i], FD(y[i], from3(y, N), 1e-6), 1e-6);
  for (int i = 0; i < N; i++) g[i] = gy[i] = 0;
  __enzyme_autodiff((void *)two, enzyme_dup, x, g, enzyme_dup, y, gy, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    CHECK("two x", g[i], i == 2 ? 3.0 : 0.0, 0);
    CHECK("two y", gy[i], 0.0, 0);
  }
  for (int i = 0; i < N; i++) g[i] = gy[i] = 0;
  __enzyme_autodiff((void *)two, enzyme_dup, y, gy, enzyme_dup, x, g, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    CHECK("two, second array", g[i], i == 2 ? 3.0 : 0.0, 0);
    CHECK("two, first array", gy[i], 0.0, 0);
  }
  GRAD1(overwritten, big0, g, N);
  for (int i = 0; i < N; i++) CHECK("overwritten entry", g[i], i == 0 ? 8.0 * 9.0 : 0.0, 1e-15);
  GRAD1(overwritten, y, g, N);
  for (int i = 0; i < N; i++)
    CHECK("overwritten fd", g[i], FD(y[i], overwritten(y, N), 1e-6), 1e-6);
  CHECK_DONE();
}
