// Reverse: posix_memalign for an aligned work buffer, and a buffer grown
// with realloc inside a loop (each push may move the data), then reduced.
#include "check.h"
__attribute__((noinline)) double f(const double *x, int n) {
  double *w;
  if (posix_memalign((void **)&w, 64, n * sizeof(double))) return 0;
  for (int i = 0; i < n; i++) w[i] = exp(x[i]) - x[i];
  int cap = 1, len = 0;
  double *v = (double *)malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      v = (double *)realloc(v, cap * sizeof(double));
    }
    v[len++] = w[i] * x[(i + 1) % n];
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += v[i] * v[i];
  free(v);
  free(w);
  return s;
}
int main(void) {
  double x[7] = {0.1, -0.5, 0.9, 0.3, -1.2, 0.7, 0.05}, dx[7] = {0};
  double r = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 7);
  (void)r;
  for (int i = 0; i < 7; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, 7), 1e-6), 1e-6);
  CHECK_DONE();
}
