// Reverse: five active scalars (enzyme_out) through fmax/fmin and ternary
// max/min chains; the result struct holds all five derivatives.
#include <math.h>
#include <stdio.h>
extern int enzyme_out;
typedef struct { double a, b, c, d, e; } D5;
D5 __enzyme_autodiff(void *, ...);
static double mx(double x, double y) { return x > y ? x : y; }
static double mn(double x, double y) { return x < y ? x : y; }
double many(double a, double b, double c, double d, double e) {
  double m1 = fmax(fmax(a, b), fmax(c * c, d));
  double m2 = mn(mx(a, e), mn(b * 3, c + d));
  return m1 * m2 + fmin(e, -a);
}
static int close(double g, double w) { return fabs(g - w) < 1e-12; }
int main(void) {
  double a = 0.5, b = 1.25, c = -1.5, d = 0.75, e = 0.9;
  D5 r = __enzyme_autodiff((void *)many, enzyme_out, a, enzyme_out, b, enzyme_out, c, enzyme_out, d,
                           enzyme_out, e);
  /* m1 = max(0.5,1.25,2.25,0.75) = c^2 = 2.25; m2 = min(max(a,e)=e=0.9, 3.75, -0.75) = c+d = -0.75
     fmin(e, -a) = -a = -0.5.  f = c^2 (c + d) - a */
  double wa = -1, wb = 0, wc = 2 * c * (c + d) + c * c, wd = c * c, we = 0;
  printf("%g %g %g %g %g\n", r.a, r.b, r.c, r.d, r.e);
  return !(close(r.a, wa) && close(r.b, wb) && close(r.c, wc) && close(r.d, wd) && close(r.e, we));
}
