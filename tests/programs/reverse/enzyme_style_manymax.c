// Enzyme-style: nested max/min selections among many active scalars.
#include <stdio.h>
#include <math.h>
typedef struct { double a, b, c, d; } D4;
D4 __enzyme_autodiff(void *, ...);
static double mx(double a, double b) { return a > b ? a : b; }
double manymax(double a, double b, double c, double d) {
  return mx(mx(a * 2, b), mx(c, d * d)) + fmin(a, c);
}
int main() {
  D4 r = __enzyme_autodiff((void *)manymax, 1.0, 1.5, 0.5, 1.7);
  /* max(2, 1.5, 0.5, 2.89) = d^2 -> dd = 3.4; fmin(a, c) = c -> dc = 1 */
  printf("%f %f %f %f\n", r.a, r.b, r.c, r.d);
  return !(r.a == 0 && r.b == 0 && fabs(r.c - 1) < 1e-12 && fabs(r.d - 3.4) < 1e-12);
}
