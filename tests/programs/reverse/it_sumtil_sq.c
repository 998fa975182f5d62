// Reverse: squared sum with a data-dependent early exit and a continue;
// markers and entry point declared by hand (no header).
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double sumsq_until(const double *x, int n, double bound) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0) continue;           /* negative entries are skipped */
    s += x[i] * x[i];
    if (s > bound) break;             /* exit depends on the data */
  }
  return s;
}
int main(void) {
  double x[7] = {1.0, -2.0, 1.5, 0.5, 2.0, 3.0, 1.0};
  double dx[7] = {0};
  double bound = 4.0;
  __enzyme_autodiff((void *)sumsq_until, enzyme_dup, x, dx, enzyme_const, 7, enzyme_const, bound);
  /* 1 + 2.25 = 3.25, +0.25 = 3.5, +4 = 7.5 > 4 -> stop after x[4] */
  double want[7] = {2.0, 0, 3.0, 1.0, 4.0, 0, 0};
  int bad = 0;
  for (int i = 0; i < 7; i++) {
    printf("dx[%d] = %g (want %g)\n", i, dx[i], want[i]);
    if (fabs(dx[i] - want[i]) > 1e-12) bad = 1;
  }
  return bad;
}
