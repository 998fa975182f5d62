// One function called with different activities: each call site gets its
// own specialisation.
#include "check.h"
__attribute__((noinline)) double mix(double a, double b) { return a * a * b + sin(b); }
double f(double x, double c) {
  double u = mix(x, c);      /* first argument active */
  double v = mix(c, x);      /* second argument active */
  double w = mix(c, c);      /* nothing active */
  double z = mix(x, x);      /* both */
  return u + 2 * v + w + z;
}
int main(void) {
  double x = 0.9, c = 1.7;
  double d = __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0, enzyme_const, c);
  double want = 2 * x * c + 2 * (c * c + cos(x)) + (3 * x * x + cos(x));
  CHECK("df/dx", d, want, 1e-12);
  CHECK("df/dx fd", d, FD(x, f(x, c), 1e-6), 1e-6);
  double dc = __enzyme_fwddiff((void *)f, enzyme_const, x, enzyme_dup, c, 1.0);
  CHECK("df/dc fd", dc, FD(c, f(x, c), 1e-6), 1e-6);
  /* also differentiate mix directly with both activities */
  double m1 = __enzyme_fwddiff((void *)mix, enzyme_dup, x, 1.0, enzyme_const, c);
  double m2 = __enzyme_fwddiff((void *)mix, enzyme_const, x, enzyme_dup, c, 1.0);
  CHECK("dmix/da", m1, 2 * x * c, 1e-12);
  CHECK("dmix/db", m2, x * x + cos(c), 1e-12);
  CHECK_DONE();
}
