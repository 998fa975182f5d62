// Enzyme-style: entry points declared with precise prototypes (no
// varargs), markers defined (not extern) in the program.
#include <stdio.h>
#include <math.h>
int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff_scalar(double (*)(double), double);
void __enzyme_autodiff_arr(double (*)(const double *, int), int, const double *, double *, int, int);
double f(double x) { return exp(sin(x)) * x; }
double g(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i] * v[i];
  return s;
}
int main() {
  double x = 0.4;
  double d = __enzyme_autodiff_scalar(f, x);
  double want = exp(sin(x)) * (cos(x) * x + 1);
  printf("d = %f want %f\n", d, want);
  if (fabs(d - want) > 1e-12) return 1;
  double v[3] = {1, -2, 0.5}, dv[3] = {0};
  __enzyme_autodiff_arr(g, enzyme_dup, v, dv, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    if (fabs(dv[i] - 3 * v[i] * v[i]) > 1e-12) return 2;
  return 0;
}
