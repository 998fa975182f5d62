// while loop with a data-dependent early exit and a break.
#include "check.h"
double f(double x) {
  double s = x, t = 1.0;
  int i = 0;
  while (1) {
    t *= x;
    s += t / (i + 1);
    if (s > 10.0) break;   /* early exit depends on the active value */
    if (++i >= 20) return -s;
  }
  return s * x;
}
double g(double x) {
  double acc = 0;
  int i = 0;
  while (i < 10 && acc < 5.0) {
    acc += x * i;
    i++;
  }
  return acc;
}
int main(void) {
  double x = 1.7;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK("df/dx fd", d, FD(x, f(x), 1e-7), 1e-5);
  /* analytic: trace the same iterations */
  double s = x, t = 1, ds = 1, dt = 0;
  int i = 0;
  for (;;) {
    dt = dt * x + t; t *= x;
    s += t / (i + 1); ds += dt / (i + 1);
    if (s > 10.0) break;
    i++;
  }
  CHECK("df/dx", d, ds * x + s, 1e-12);
  double y = 0.9;
  double dg = __enzyme_fwddiff((void *)g, y, 1.0);
  /* acc = y*(0+1+2+3) = 6y > 5 after i=3 -> 4 iterations */
  CHECK("dg/dx", dg, 6.0, 1e-12);
  CHECK("dg/dx fd", dg, FD(y, g(y), 1e-7), 1e-5);
  CHECK_DONE();
}
