// Reverse mode (C++): std::sort of a copy (vector) then a rank-weighted sum
// (an ordered weighted average); the derivative follows the permutation.
#include "check.h"
#include <algorithm>
#include <vector>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double owa(const double *x, int n) {
  std::vector<double> s(x, x + n);
  std::sort(s.begin(), s.end());
  double r = 0;
  for (int i = 0; i < n; i++) r += s[i] * s[i] * (i + 1);
  return r;
}
int main() {
  const int n = 7;
  double x[n] = {0.3, -1.2, 2.5, 0.9, -0.1, 1.7, 0.45}, dx[n] = {0};
  __enzyme_autodiff((void *)owa, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) {
    int rank = 0;
    for (int j = 0; j < n; j++) rank += x[j] < x[i];
    CHECK("dx analytic", dx[i], 2 * x[i] * (rank + 1), 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], owa(x, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
