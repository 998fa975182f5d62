// Reverse mode (C++): the enzyme::autodiff C++ API with a std::vector
// passed through Duplicated pointers (shadow vector of the same size), an
// Active scalar and a Const size.
#include "check.h"
#include <cmath>
#include <enzyme/enzyme.hpp>
#include <vector>
static double penalty(const std::vector<double> *v, double lam) {
  double s = 0;
  for (size_t i = 0; i + 1 < v->size(); i++) {
    double d = (*v)[i + 1] - (*v)[i];
    s += d * d;
  }
  return lam * s + std::log(1 + lam * lam);
}
int main() {
  std::vector<double> v = {0.1, 0.7, -0.2, 0.5, 1.0}, dv(5, 0.0);
  double lam = 0.6;
  auto [dlam] = enzyme::autodiff<enzyme::Reverse>(
      penalty, enzyme::Duplicated<const std::vector<double> *>(&v, &dv), enzyme::Active(lam));
  CHECK("dlam fd", dlam, FD(lam, penalty(&v, lam), 1e-6), 1e-6);
  for (int i = 0; i < 5; i++) CHECK("dv fd", dv[i], FD(v[i], penalty(&v, lam), 1e-6), 1e-6);
  CHECK_DONE();
}
