// Reverse mode (C++): <numeric>/<algorithm> over arrays inside the
// differentiated function: std::accumulate with a lambda, std::inner_product,
// std::transform into a local array, std::fill, std::copy.
#include "check.h"
#include <algorithm>
#include <cmath>
#include <numeric>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, const double *w, int n) {
  double t[16], u[16];
  std::fill(u, u + 16, 0.0);
  std::transform(x, x + n, t, [](double v) { return std::sin(v) * v; });
  std::copy(t, t + n, u);
  double dot = std::inner_product(u, u + n, w, 0.0);
  double sq = std::accumulate(x, x + n, 0.0, [](double acc, double v) { return acc + v * v; });
  return dot * sq;
}
int main() {
  const int n = 6;
  double x[n] = {0.1, 0.4, -0.9, 1.3, 0.25, -0.6}, dx[n] = {0};
  double w[n] = {1, 2, 3, 0.5, -1, 0.25}, dw[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, n);
  double dot = 0, sq = 0;
  for (int i = 0; i < n; i++) dot += std::sin(x[i]) * x[i] * w[i], sq += x[i] * x[i];
  for (int i = 0; i < n; i++) {
    double want = (std::cos(x[i]) * x[i] + std::sin(x[i])) * w[i] * sq + dot * 2 * x[i];
    CHECK("dx analytic", dx[i], want, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], f(x, w, n), 1e-6), 1e-6);
    CHECK("dw analytic", dw[i], std::sin(x[i]) * x[i] * sq, 1e-12);
  }
  CHECK_DONE();
}
