// Reverse mode: switch statements selecting the operation per element.
#include "check.h"
double f(const double *x, const int *op, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    switch (op[i]) {
    case 0: s += x[i]; break;
    case 1: s += x[i] * x[i]; break;
    case 2: s *= x[i]; break;
    case 5: s = sin(s) + x[i]; break;
    case 6:
    case 7: s -= 2 * x[i];
    /* fallthrough */
    default: s += 0.5 * x[i] * s;
    }
  }
  return s;
}
int main(void) {
  enum { N = 9 };
  double x[N] = {0.5, 1.2, -0.3, 0.8, 1.1, -0.6, 0.4, 0.9, 0.2}, dx[N] = {0};
  int op[N] = {0, 1, 2, 5, 6, 3, 7, 1, 2};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, op, enzyme_const, N);
  for (int i = 0; i < N; i++) CHECK("dswitch fd", dx[i], FD(x[i], f(x, op, N), 1e-6), 1e-6);
  CHECK_DONE();
}
