// Enzyme-style: realloc to a smaller and then a larger size.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
double __enzyme_autodiff(void *, ...);
double f(double x) {
  double *p = (double *)malloc(4 * sizeof(double));
  for (int i = 0; i < 4; i++) p[i] = x * (i + 1);
  p = (double *)realloc(p, 2 * sizeof(double));
  p = (double *)realloc(p, 3 * sizeof(double));
  p[2] = p[0] * p[1];
  double r = p[0] + p[1] + p[2];
  free(p);
  return r;
}
int main() {
  double x = 1.5;
  double d = __enzyme_autodiff((void *)f, x);
  /* r = x + 2x + 2x^2 */
  printf("d = %f\n", d);
  return fabs(d - (3 + 4 * x)) > 1e-12;
}
