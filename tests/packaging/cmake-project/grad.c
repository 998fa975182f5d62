/* d/dx of sum_i x_i^2 sin(x_i) by reverse mode, against the analytic value. */
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdio.h>

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * sin(x[i]);
  return s;
}

int main(void) {
  double x[4] = {0.5, 1.0, -2.0, 3.0}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  int bad = 0;
  for (int i = 0; i < 4; i++) {
    double want = 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]);
    if (fabs(dx[i] - want) > 1e-12 * fmax(1, fabs(want))) bad++, printf("dx[%d] = %g, want %g\n", i, dx[i], want);
  }
  printf("grad_c: %s\n", bad ? "FAILED" : "ok");
  return bad != 0;
}
