// Reverse mode (C++): at -O0/-O1 a call through a std::function stays an
// indirect call (through the function pointer the std::function stores); it
// goes through the dispatcher over the address-taken functions of its type.
// LEVELS: O0 O1
#include "check.h"
#include <cmath>
#include <functional>
extern "C" double __enzyme_autodiff(void *, ...);
static double apply_twice(const std::function<double(double)> &g, double x) { return g(g(x)); }
static double f(double x) {
  std::function<double(double)> g = [](double v) { return std::sin(v) + v * v; };
  return apply_twice(g, x);
}
int main() {
  double x = 0.4;
  double d = __enzyme_autodiff((void *)f, x);
  double u = std::sin(x) + x * x;
  double want = (std::cos(u) + 2 * u) * (std::cos(x) + 2 * x);
  CHECK("analytic", d, want, 1e-12);
  CHECK("fd", d, FD(x, f(x), 1e-6), 1e-6);
  CHECK_DONE();
}
