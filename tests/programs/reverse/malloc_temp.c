// Reverse mode: malloc'd temporary buffers, freed inside the function.
#include "check.h"
double f(const double *x, int n) {
  double *t = (double *)malloc(n * sizeof(double));
  double *u = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = exp(x[i]);
  for (int i = 0; i < n; i++) u[i] = t[i] * t[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; i++) s += u[i];
  free(t);
  free(u);
  return s;
}
int main(void) {
  double x[5] = {0.1, -0.3, 0.5, 0.2, -0.8}, dx[5] = {0};
  __enzyme_autodiff((void *)f, x, dx, 5);
  for (int i = 0; i < 5; i++) {
    double want = exp(x[i]) * (exp(x[(i + 1) % 5]) + exp(x[(i + 4) % 5]));
    CHECK("dmalloc analytic", dx[i], want, 1e-12);
    CHECK("dmalloc fd", dx[i], FD(x[i], f(x, 5), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
