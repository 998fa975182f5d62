// Reverse mode (C++): std::pair / std::tuple values built and unpacked
// with structured bindings inside the differentiated function, and a
// helper returning a pair by value.
#include "check.h"
#include <cmath>
#include <tuple>
#include <utility>
struct G2 {
  double dx, dy;
};
G2 __enzyme_autodiff(void *, double, double);
static std::pair<double, double> polar(double x, double y) {
  return {std::sqrt(x * x + y * y), std::atan2(y, x)};
}
static double f(double x, double y) {
  auto [r, th] = polar(x, y);
  std::tuple<double, double, double> t{r * std::cos(2 * th), r * std::sin(2 * th), r};
  auto [u, v, w] = t;
  return u * v + w * w;
}
int main() {
  double x = 0.9, y = 0.5;
  G2 g = __enzyme_autodiff((void *)f, x, y);
  CHECK("dx fd", g.dx, FD(x, f(x, y), 1e-6), 1e-6);
  CHECK("dy fd", g.dy, FD(y, f(x, y), 1e-6), 1e-6);
  CHECK_DONE();
}
