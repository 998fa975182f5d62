// Reverse mode (C++): a std::function called inside the differentiated
// function (its target is a lambda known at the construction site). From
// -O2 LLVM resolves the call through the std::function to the lambda; at
// -O0/-O1 it stays an indirect call and goes through the dispatcher over
// the address-taken functions of its type.
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
