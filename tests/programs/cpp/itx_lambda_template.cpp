// Reverse mode (C++): lambdas passed to a function template as callables
// (with and without captures), differentiated through a wrapper.
#include "check.h"
#include <cmath>
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" int enzyme_const;
template <typename F> static double integrate(F f, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; i++) s += f(a + i * h);
  return s * h;
}
template <typename F, typename G> static double compose_sum(F f, G g, double x) {
  return f(g(x)) + g(f(x));
}
static double wrapper(double k, double x) {
  auto sq = [](double t) { return t * t; };
  auto scaled = [k](double t) { return std::sin(k * t); };
  return integrate(scaled, 0.0, 1.0, 16) + compose_sum(sq, scaled, x);
}
int main() {
  double k = 1.7, x = 0.4;
  double dk = __enzyme_autodiff((void *)wrapper, k, enzyme_const, x);
  CHECK("dk fd", dk, FD(k, wrapper(k, x), 1e-6), 1e-6);
  CHECK_DONE();
}
