// Reverse mode (C++): lambdas, std::min/std::max, and std:: math overloads.
#include "check.h"
#include <algorithm>
#include <cmath>
extern "C" double f(const double *x, int n) {
  auto sq = [](double v) { return v * v; };
  double lo = x[0], hi = x[0], s = 0;
  for (int i = 0; i < n; i++) {
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
    s += sq(std::tanh(x[i])) + std::pow(std::fabs(x[i]), 1.5);
  }
  return s + (hi - lo) * 2;
}
int main() {
  double x[4] = {0.3, -1.2, 2.1, 0.9}, dx[4] = {0};
  __enzyme_autodiff((void *)f, x, dx, 4);
  for (int i = 0; i < 4; i++) CHECK("dlambda fd", dx[i], FD(x[i], f(x, 4), 1e-6), 1e-6);
  CHECK_DONE();
}
