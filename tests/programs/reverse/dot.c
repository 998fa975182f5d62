// Reverse mode: dot product, both vectors active.
#include "check.h"
double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
int main(void) {
  enum { N = 7 };
  double a[N], b[N], da[N] = {0}, db[N] = {0};
  for (int i = 0; i < N; i++) { a[i] = 0.3 * i - 1; b[i] = 1.0 / (i + 1); }
  __enzyme_autodiff((void *)dot, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    CHECK("d/da", da[i], b[i], 1e-12);
    CHECK("d/db", db[i], a[i], 1e-12);
    CHECK("d/da fd", da[i], FD(a[i], dot(a, b, N), 1e-6), 1e-7);
  }
  CHECK_DONE();
}
