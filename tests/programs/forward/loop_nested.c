// Nested loops: x^T A x with A built from x.
#include "check.h"
#define N 4
double f(double x) {
  double v[N], r = 0;
  for (int i = 0; i < N; i++) v[i] = x + i;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) r += v[i] * v[j] * (i + 1) / (j + 1);
  return r;
}
int main(void) {
  double x = 0.3;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  double a = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a += ((x + j) + (x + i)) * (i + 1.0) / (j + 1.0);
  CHECK("df/dx", d, a, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
