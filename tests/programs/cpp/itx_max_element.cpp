// Reverse mode (C++): std::max_element / std::min_element return iterators
// (pointers) into the input; the value they select is differentiated (a
// softened range: max - min plus a log-sum-exp around the maximum).
#include "check.h"
#include <algorithm>
#include <cmath>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  const double *hi = std::max_element(x, x + n);
  const double *lo = std::min_element(x, x + n);
  double s = 0;
  for (int i = 0; i < n; i++) s += std::exp(x[i] - *hi);
  return (*hi - *lo) + *hi + std::log(s);
}
int main() {
  const int n = 6;
  double x[n] = {0.3, -1.1, 2.2, 0.8, -0.4, 1.5}, dx[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  double z = 0;
  for (int i = 0; i < n; i++) z += std::exp(x[i]);
  for (int i = 0; i < n; i++) {
    double want = std::exp(x[i]) / z + (i == 2 ? 1.0 : 0.0) - (i == 1 ? 1.0 : 0.0);
    CHECK("dx analytic", dx[i], want, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
