// The C++ API: reverse and forward mode of a lambda-free function.
#include <cmath>
#include <cstdio>
#include <enzyme/enzyme.hpp>

static double g(double x, double y) { return std::exp(x * y) + x / y; }

int main() {
  double x = 0.7, y = 1.3;
  auto [dx, dy] = enzyme::autodiff<enzyme::Reverse>(g, enzyme::Active(x), enzyme::Active(y));
  double tx = enzyme::autodiff<enzyme::Forward>(g, enzyme::Duplicated(x, 1.0), enzyme::Const(y));
  double wx = y * std::exp(x * y) + 1 / y, wy = x * std::exp(x * y) - x / (y * y);
  bool ok = std::fabs(dx - wx) < 1e-12 && std::fabs(dy - wy) < 1e-12 && std::fabs(tx - wx) < 1e-12;
  std::printf("grad_cxx: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
