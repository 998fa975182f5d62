// Reverse: for each element, a Newton iteration solving y^3 + y = x[i]
// with a data-dependent number of steps (while loop with a tolerance)
// nested inside a for loop; dy/dx = 1 / (3 y^2 + 1).
#include "check.h"
__attribute__((noinline)) double solve_all(const double *x, double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = 0, r = -x[i];
    int it = 0;
    while (fabs(r) > 1e-14 && it < 100) {
      v -= r / (3 * v * v + 1);
      r = v * v * v + v - x[i];
      it++;
    }
    y[i] = v;
    s += v * (i + 1);
  }
  return s;
}
int main(void) {
  double x[4] = {0.5, 10.0, -3.0, 0.02}, y[4], dx[4] = {0}, dy[4] = {0};
  __enzyme_autodiff((void *)solve_all, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    CHECK("root", y[i] * y[i] * y[i] + y[i], x[i], 1e-12);
    CHECK("dx", dx[i], (i + 1) / (3 * y[i] * y[i] + 1), 1e-10);
  }
  CHECK_DONE();
}
