// Enzyme-style: cosine from its Taylor series with helper functions for
// the factorial and the power (integer loops around float work).
#include <stdio.h>
#include <math.h>
double __enzyme_autodiff(void *, ...);
static double fact(int n) { double r = 1; for (int i = 2; i <= n; i++) r *= i; return r; }
static double ipow(double x, int n) { double r = 1; for (int i = 0; i < n; i++) r *= x; return r; }
double my_cos(double x) {
  double s = 0;
  for (int k = 0; k < 12; k++) s += (k % 2 ? -1 : 1) * ipow(x, 2 * k) / fact(2 * k);
  return s;
}
int main() {
  for (double x = -1.5; x < 1.6; x += 0.5) {
    double d = __enzyme_autodiff((void *)my_cos, x);
    printf("d my_cos(%g) = %.12f want %.12f\n", x, d, -sin(x));
    if (fabs(d + sin(x)) > 1e-9) return 1;
  }
  return 0;
}
