// Reverse mode (C++): a lambda capturing local accumulators by reference
// and updating them (active captured state), called in a loop and through
// a generic algorithm (std::for_each).
#include "check.h"
#include <algorithm>
#include <cmath>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  double sum = 0, sumsq = 0;
  auto add = [&](double v) {
    sum += v;
    sumsq += v * v;
  };
  for (int i = 0; i < n; i += 2) add(x[i]);
  std::for_each(x + 1, x + n, [&](const double &v) { sumsq += std::cos(v); });
  return sum * sumsq;
}
int main() {
  const int n = 7;
  double x[n] = {0.2, -0.5, 1.1, 0.4, -0.9, 0.6, 1.3}, dx[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
  CHECK_DONE();
}
