// Reverse mode: ternaries / selects on data (ReLU, clamp, abs).
#include "check.h"
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double r = x[i] > 0 ? x[i] : 0.01 * x[i];
    double c = x[i] < -1 ? -1 : (x[i] > 1 ? 1 : x[i]);
    s += r * r + c * x[i];
  }
  return s;
}
double g(double a, double b) { return a > b ? a * a : b * 3; }
int main(void) {
  double x[6] = {-2, -0.5, 0.25, 0.9, 1.5, -1.2}, dx[6] = {0};
  __enzyme_autodiff((void *)f, x, dx, 6);
  for (int i = 0; i < 6; i++) CHECK("dsel fd", dx[i], FD(x[i], f(x, 6), 1e-7), 1e-6);
  CHECK("g a>b", __enzyme_autodiff((void *)g, enzyme_out, 2.0, enzyme_const, 1.0), 4, 1e-12);
  CHECK("g a<b", __enzyme_autodiff((void *)g, enzyme_const, 2.0, enzyme_out, 3.0), 3, 1e-12);
  CHECK_DONE();
}
