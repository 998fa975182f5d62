// Reverse mode: active data flowing through global scratch memory and a
// constant global coefficient table.
#include "check.h"
static double scratch[4];
static const double coef[4] = {0.5, -1, 2, 0.25};
double f(const double *x) {
  for (int i = 0; i < 4; i++) scratch[i] = x[i] * coef[i];
  double s = 0;
  for (int i = 0; i < 4; i++) s += scratch[i] * scratch[(i + 1) % 4];
  return s;
}
int main(void) {
  double x[4] = {1, 2, -1, 0.5}, dx[4] = {0};
  __enzyme_autodiff((void *)f, x, dx);
  for (int i = 0; i < 4; i++) CHECK("dglobal fd", dx[i], FD(x[i], f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
