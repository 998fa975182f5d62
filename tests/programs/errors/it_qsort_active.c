// EXPECT-ERROR: no derivative known for external function 'qsort'
// LEVELS: O0 O2
// Active data moved by a library function with a callback (qsort): a
// clear error naming the function, never a silent wrong derivative.
#include "check.h"
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
double f(double *x, int n) {
  qsort(x, n, sizeof(double), cmp);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[i];
  return s;
}
int main(void) {
  double x[3] = {3, 1, 2}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  return 0;
}
