// Reverse: a calloc'd accumulator array (zero-initialized shadow), with
// accumulation at data-dependent integer indices.
#include "check.h"
__attribute__((noinline)) double f(const double *x, const int *bin, int n, int nb) {
  double *acc = (double *)calloc(nb, sizeof(double));
  for (int i = 0; i < n; i++) acc[bin[i]] += x[i] * x[i];
  double s = 0;
  for (int b = 0; b < nb; b++) s += log1p(acc[b]) * (b + 1);
  free(acc);
  return s;
}
int main(void) {
  double x[6] = {0.5, 1.0, -0.7, 0.2, 1.4, -0.3}, dx[6] = {0};
  int bin[6] = {2, 0, 2, 1, 0, 2};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, bin, enzyme_const, 6, enzyme_const, 3);
  double acc[3] = {0};
  for (int i = 0; i < 6; i++) acc[bin[i]] += x[i] * x[i];
  for (int i = 0; i < 6; i++) {
    CHECK("dx", dx[i], (bin[i] + 1) / (1 + acc[bin[i]]) * 2 * x[i], 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], f(x, bin, 6, 3), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
