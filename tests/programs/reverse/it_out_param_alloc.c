// Reverse: a noinline callee returns a new buffer through an out
// parameter (double **out), another fills it; a global pointer set to a
// heap buffer inside the function is read back through the global.
#include "check.h"
static double *g_buf;
__attribute__((noinline)) static void make(double **out, int n) { *out = (double *)calloc(n, sizeof(double)); }
__attribute__((noinline)) static void fill(double *b, const double *x, int n) {
  for (int i = 0; i < n; i++) b[i] = x[i] * (i + 1) + x[n - 1 - i] * x[i];
}
double f(const double *x, int n) {
  double *b;
  make(&b, n);
  fill(b, x, n);
  g_buf = b;
  double s = 0;
  for (int i = 0; i < n; i++) s += g_buf[i] * g_buf[i];
  free(b);
  return s;
}
int main(void) {
  double x[5] = {0.3, -0.6, 1.1, 0.4, -0.2}, dx[5] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  CHECK_DONE();
}
