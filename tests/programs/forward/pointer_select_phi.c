// Pointers merged by select and phi: the shadow pointer is merged the same way.
#include "check.h"
double pick_sum(double *a, double *b, int n, double t) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *p = (a[i] * t > b[i]) ? a : b;
    s += p[i] * t;
  }
  double *q = a;
  for (int i = 0; i < n; i++) {
    if (i == 2) q = b;
    s += q[i] * q[i];
  }
  return s;
}
int main(void) {
  double a[4] = {1, 5, 2, 0.5}, b[4] = {2, 1, 3, 1};
  double da[4] = {1, 1, 1, 1}, db[4] = {0, 0, 0, 0};
  double t = 1.2;
  /* picks: a0*t=1.2<2 -> b; 6>1 -> a; 2.4<3 -> b; 0.6<1 -> b */
  double d = __enzyme_fwddiff((void *)pick_sum, enzyme_dup, a, da, enzyme_dup, b, db, 4, enzyme_const, t);
  CHECK("d/d(all a)", d, t * 1 + 2 * a[0] + 2 * a[1], 1e-12);
  double dt = __enzyme_fwddiff((void *)pick_sum, enzyme_const, a, enzyme_const, b, 4, enzyme_dup, t, 1.0);
  CHECK("d/dt", dt, b[0] + a[1] + b[2] + b[3], 1e-12);
  CHECK("d/dt fd", dt, FD(t, pick_sum(a, b, 4, t), 1e-6), 1e-6);
  CHECK_DONE();
}
