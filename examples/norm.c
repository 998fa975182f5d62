// Directional derivative of the Euclidean norm of a vector, forward mode
// through memory and a loop: d|x| . v = (x . v) / |x|.
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdio.h>

double norm(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

int main(void) {
  double x[3] = {1, 2, 2}, v[3] = {1, 0, 0};
  double d = __enzyme_fwddiff((void *)norm, enzyme_dup, x, v, enzyme_const, 3);
  printf("|x| = %g, d|x|/dx0 = %g (expected %g)\n", norm(x, 3), d, 1.0 / 3.0);
  return !(fabs(d - 1.0 / 3.0) < 1e-12);
}
