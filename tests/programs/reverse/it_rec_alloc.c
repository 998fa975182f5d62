// Reverse: a recursive callee that allocates a scratch array at each
// level (divide and conquer: sum of products of halves), freeing it
// before returning.
#include "check.h"
__attribute__((noinline)) static double dc(const double *x, int n) {
  if (n == 1) return x[0] * x[0];
  int h = n / 2;
  double *t = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = sin(x[i]);
  double r = dc(t, h) * 0.5 + dc(t + h, n - h) + dc(x, h);
  free(t);
  return r;
}
double top(const double *x, int n) { return dc(x, n); }
int main(void) {
  double x[7] = {0.3, -0.8, 1.2, 0.5, -0.1, 0.9, 0.4}, dx[7] = {0};
  __enzyme_autodiff((void *)top, enzyme_dup, x, dx, enzyme_const, 7);
  for (int i = 0; i < 7; i++) CHECK("dx fd", dx[i], FD(x[i], top(x, 7), 1e-6), 1e-6);
  CHECK_DONE();
}
