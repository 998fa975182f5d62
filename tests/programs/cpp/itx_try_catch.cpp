// Reverse mode (C++): exceptions that are never thrown. Helper functions
// with try/catch blocks and RAII objects whose destructors run on the
// unwind path (invoke + landingpad cleanups), inside a loop.
#include "check.h"
#include <cmath>
#include <stdexcept>
struct Guard {
  int *count;
  explicit Guard(int *c) : count(c) { ++*count; }
  ~Guard() { --*count; }
};
static double checked_log(double v) {
  if (v <= 0) throw std::domain_error("log of non-positive");
  return std::log(v);
}
static double robust(const double *x, int n, int *depth) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    Guard g(depth);
    try {
      s += checked_log(x[i] * x[i] + 1.0) * x[i];
    } catch (const std::domain_error &) {
      s += 0;
    }
  }
  return s;
}
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
int main() {
  const int n = 5;
  double x[n] = {0.5, -1.0, 2.0, 0.1, -0.7}, dx[n] = {0};
  int depth = 0;
  __enzyme_autodiff((void *)robust, enzyme_dup, x, dx, enzyme_const, n, enzyme_const, &depth);
  for (int i = 0; i < n; i++) {
    double want = std::log(x[i] * x[i] + 1) + 2 * x[i] * x[i] / (x[i] * x[i] + 1);
    CHECK("dx analytic", dx[i], want, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], robust(x, n, &depth), 1e-6), 1e-6);
  }
  CHECK("depth restored", depth, 0, 0);
  CHECK_DONE();
}
