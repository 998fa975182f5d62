// Enzyme-style: a Taylor-series cosine with a factorial helper and a loop
// whose trip count is an integer argument.
#include <math.h>
#include <stdio.h>
double __enzyme_fwddiff(void *, double, double, int);
static double fact(int n) { return n <= 1 ? 1.0 : n * fact(n - 1); }
double my_cos(double x, int terms) {
  double s = 0;
  for (int k = 0; k < terms; k++) s += ((k % 2) ? -1.0 : 1.0) * pow(x, 2 * k) / fact(2 * k);
  return s;
}
int main(void) {
  double x = 0.8;
  double d = __enzyme_fwddiff((void *)my_cos, x, 1.0, 12);
  printf("d=%.17g want %.17g\n", d, -sin(x));
  if (fabs(d + sin(x)) > 1e-10) return 1;
  double h = 1e-6, fd = (my_cos(x + h, 12) - my_cos(x - h, 12)) / (2 * h);
  if (fabs(d - fd) > 1e-6) return 1;
  return 0;
}
