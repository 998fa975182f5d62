// Reverse: recursive in-place quicksort (data-dependent swaps and
// recursion depth) of a copy of the input, then a weighted sum of the
// sorted values: the derivative is the weight of each value's rank.
#include "check.h"
#include <string.h>
static void swap(double *a, double *b) {
  double t = *a;
  *a = *b;
  *b = t;
}
__attribute__((noinline)) static void qs(double *v, int lo, int hi) {
  if (lo >= hi) return;
  double pivot = v[hi];
  int i = lo;
  for (int j = lo; j < hi; j++)
    if (v[j] < pivot) swap(&v[i++], &v[j]);
  swap(&v[i], &v[hi]);
  qs(v, lo, i - 1);
  qs(v, i + 1, hi);
}
double ranked(const double *x, int n) {
  double *v = (double *)malloc(n * sizeof(double));
  memcpy(v, x, n * sizeof(double));
  qs(v, 0, n - 1);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * v[i] * v[i];
  free(v);
  return s;
}
int main(void) {
  enum { N = 9 };
  double x[N] = {0.3, -1.2, 2.5, 0.7, -0.4, 1.9, 0.05, -2.2, 1.1}, dx[N] = {0};
  __enzyme_autodiff((void *)ranked, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    int rank = 0;
    for (int j = 0; j < N; j++) rank += x[j] < x[i];
    CHECK("dx", dx[i], (rank + 1) * 2 * x[i], 1e-12);
  }
  CHECK_DONE();
}
