// Reverse mode: calloc'd histogram-like accumulator indexed by int data.
#include "check.h"
double f(const double *x, const int *bin, int n, int nb) {
  double *h = (double *)calloc(nb, sizeof(double));
  for (int i = 0; i < n; i++) h[bin[i]] += x[i];
  double s = 0;
  for (int b = 0; b < nb; b++) s += h[b] * h[b];
  free(h);
  return s;
}
int main(void) {
  double x[6] = {1, 2, 3, 0.5, -1, 4}, dx[6] = {0};
  int bin[6] = {0, 1, 0, 2, 1, 2};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, bin, enzyme_const, 6, enzyme_const, 3);
  double h[3] = {4, 1, 4.5};
  for (int i = 0; i < 6; i++) CHECK("dhist", dx[i], 2 * h[bin[i]], 1e-12);
  CHECK_DONE();
}
