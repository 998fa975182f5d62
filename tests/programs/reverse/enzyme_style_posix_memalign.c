// Enzyme-style: a temporary allocated with posix_memalign.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
double __enzyme_autodiff(void *, ...);
double f(double x) {
  double *p;
  if (posix_memalign((void **)&p, 64, 4 * sizeof(double))) return 0;
  for (int i = 0; i < 4; i++) p[i] = x * x * (i + 1);
  double r = 0;
  for (int i = 0; i < 4; i++) r += p[i];
  free(p);
  return r;
}
int main() {
  double x = 0.75;
  double d = __enzyme_autodiff((void *)f, x);
  printf("d = %f\n", d);
  return fabs(d - 20 * x) > 1e-12;
}
