// Enzyme-style: heap temporaries and a helper taking shadows implicitly.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
static double *square_all(const double *x, int n) {
  double *y = (double *)malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  return y;
}
double total(const double *x, int n) {
  double *y = square_all(x, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i];
  free(y);
  return s;
}
int main() {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  __enzyme_autodiff((void *)total, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    printf("dx[%d]=%f\n", i, dx[i]);
    if (fabs(dx[i] - 2 * x[i]) > 1e-12) return 1;
  }
  return 0;
}
