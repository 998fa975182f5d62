// The C++ API: enzyme::autodiff with a lambda, reverse and forward mode.
#include <cmath>
#include <cstdio>
#include <enzyme/enzyme.hpp>

int main() {
  auto f = [](double x, double y) { return std::sin(x) * y + x * x; };
  auto [dx, dy] = enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(0.5), enzyme::Active(2.0));
  double t = enzyme::autodiff<enzyme::Forward>(f, enzyme::Duplicated(0.5, 1.0), enzyme::Const(2.0));
  std::printf("df/dx = %g, df/dy = %g (forward: %g; analytic %g, %g)\n", dx, dy, t,
              std::cos(0.5) * 2.0 + 1.0, std::sin(0.5));
  return std::fabs(dx - (std::cos(0.5) * 2.0 + 1.0)) > 1e-12 || std::fabs(t - dx) > 1e-12;
}
