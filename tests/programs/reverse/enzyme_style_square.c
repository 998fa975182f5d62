// LEVELS: O0 O1 O2 O3
// Written the way Enzyme's own integration tests are: no enzyme header,
// the entry point and markers declared by the program itself.
#include <stdio.h>
#include <math.h>
#include <assert.h>
extern int enzyme_dup;
extern int enzyme_out;
extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
#define APPROX_EQ(a, b, tol) (fabs((a) - (b)) <= (tol) * (1 + fabs(b)))
double square(double x) { return x * x; }
double dsquare(double x) { return __enzyme_autodiff((void *)square, x); }
double cube_mem(double *x) { return *x * *x * *x; }
int main() {
  for (double x = -2; x <= 2; x += 0.5) {
    double d = dsquare(x);
    printf("d/dx %f^2 = %f\n", x, d);
    if (!APPROX_EQ(d, 2 * x, 1e-12)) return 1;
  }
  double x = 1.5, dx = 0;
  __enzyme_autodiff((void *)cube_mem, enzyme_dup, &x, &dx);
  if (!APPROX_EQ(dx, 3 * x * x, 1e-12)) return 2;
  double o = __enzyme_autodiff((void *)square, enzyme_out, 3.0);
  if (!APPROX_EQ(o, 6, 1e-12)) return 3;
  return 0;
}
