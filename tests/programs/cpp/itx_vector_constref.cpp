// Reverse mode (C++): std::vector<double> passed by const reference; the
// shadow is a second vector of the same size.
#include "check.h"
#include <cmath>
#include <vector>
extern "C" {
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
}
static double norm_weighted(const std::vector<double> &v, const std::vector<double> &w) {
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += w[i] * v[i] * v[i];
  return std::sqrt(s);
}
int main() {
  std::vector<double> v = {0.5, -1.5, 2.0, 0.25}, dv(4, 0.0);
  std::vector<double> w = {1.0, 2.0, 0.5, 3.0};
  __enzyme_autodiff((void *)norm_weighted, enzyme_dup, &v, &dv, enzyme_const, &w);
  double n = norm_weighted(v, w);
  for (int i = 0; i < 4; i++) {
    CHECK("dv analytic", dv[i], w[i] * v[i] / n, 1e-12);
    CHECK("dv fd", dv[i], FD(v[i], norm_weighted(v, w), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
