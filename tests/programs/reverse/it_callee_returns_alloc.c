// Reverse: a noinline callee allocates and returns a buffer of active
// values, the caller reduces it and frees it; another callee returns a
// pointer into its argument (the shadow pointer follows).
#include "check.h"
__attribute__((noinline)) static double *make(const double *x, int n) {
  double *r = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) r[i] = x[i] * x[i] - x[n - 1 - i];
  return r;
}
__attribute__((noinline)) static double *pick_max(double *v, int n) {
  double *m = v;
  for (int i = 1; i < n; i++)
    if (v[i] > *m) m = &v[i];
  return m;
}
double f(const double *x, int n) {
  double *t = make(x, n);
  double *m = pick_max(t, n);
  double s = *m * 2;
  for (int i = 0; i < n; i++) s += sin(t[i]);
  free(t);
  return s;
}
int main(void) {
  double x[5] = {0.4, -1.3, 0.9, 0.2, 1.6}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  CHECK_DONE();
}
