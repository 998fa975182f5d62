// Reverse: a pointer chosen by comparing active values (ternary on
// pointers, and a pointer updated in a loop to the current maximum's
// slot), then read and written through.
#include "check.h"
__attribute__((noinline)) double f(double *a, double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *p = a[i] > b[i] ? &a[i] : &b[i];
    s += *p * *p;
    *p *= 0.5; /* writes the larger one */
  }
  double *best = &a[0];
  for (int i = 1; i < n; i++)
    if (a[i] > *best) best = &a[i];
  return s + *best * 3 + a[0] * b[0];
}
static double wrap(const double *a0, const double *b0, int n) {
  double a[8], b[8];
  for (int i = 0; i < n; i++) a[i] = a0[i], b[i] = b0[i];
  return f(a, b, n);
}
int main(void) {
  enum { N = 5 };
  double a0[N] = {0.3, 1.5, -0.2, 0.9, 0.4}, b0[N] = {0.5, 0.2, 0.1, 1.4, -0.7};
  double a[N], b[N], da[N] = {0}, db[N] = {0};
  for (int i = 0; i < N; i++) a[i] = a0[i], b[i] = b0[i];
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    CHECK("da fd", da[i], FD(a0[i], wrap(a0, b0, N), 1e-6), 1e-6);
    CHECK("db fd", db[i], FD(b0[i], wrap(a0, b0, N), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
