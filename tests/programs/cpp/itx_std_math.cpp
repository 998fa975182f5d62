// Reverse mode (C++): std:: math overloads (sqrt, pow, exp, log, max, min,
// abs, fabs, hypot, atan2, cbrt, sin, cos, tanh) in one expression tree.
#include "check.h"
#include <algorithm>
#include <cmath>
template <typename R, typename... A> R __enzyme_autodiff(void *, A...);
struct G3 {
  double dx, dy, dz;
};
static double f(double x, double y, double z) {
  double a = std::sqrt(x * x + 1.0) * std::pow(y, 3.0) + std::exp(-z * z);
  double b = std::log(1.0 + std::abs(x * y)) + std::max(x, z) * std::min(y, z);
  double c = std::hypot(x, z) + std::atan2(y, x) + std::cbrt(z + 2.0);
  return a * std::sin(b) + std::cos(c) * std::tanh(y) + std::fabs(z - x);
}
int main() {
  double pts[3][3] = {{0.7, 1.3, -0.4}, {-1.1, 0.6, 0.9}, {2.0, -0.8, 1.5}};
  for (auto &p : pts) {
    double x = p[0], y = p[1], z = p[2];
    G3 g = __enzyme_autodiff<G3>((void *)f, x, y, z);
    CHECK("dx", g.dx, FD(x, f(x, y, z), 1e-6), 1e-6);
    CHECK("dy", g.dy, FD(y, f(x, y, z), 1e-6), 1e-6);
    CHECK("dz", g.dz, FD(z, f(x, y, z), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
