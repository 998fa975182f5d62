// Reverse mode (C++): new double[n] / delete[] scratch buffers of a size
// known only at run time, a prefix sum over them and a second pass that
// reads the buffer backwards.
#include "check.h"
#include <cmath>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  double *pre = new double[n + 1];
  pre[0] = 0;
  for (int i = 0; i < n; i++) pre[i + 1] = pre[i] + x[i] * x[i];
  double *w = new double[n];
  for (int i = n - 1; i >= 0; i--) w[i] = std::sqrt(pre[i + 1] + 1.0);
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i];
  delete[] pre;
  delete[] w;
  return s;
}
int main() {
  const int n = 9;
  double x[n], dx[n] = {0};
  for (int i = 0; i < n; i++) x[i] = std::sin(1.3 * i) + 0.2;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
  CHECK_DONE();
}
