// Reverse and forward mode (C++): std::function objects held in a
// std::vector, passed to the differentiated function as a constant and
// called inside it (an indirect call through std::function's invoker;
// two lambdas, one capturing a constant by value).
#include "check.h"
#include <cmath>
#include <functional>
#include <vector>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
typedef std::vector<std::function<double(double)>> Fs;
__attribute__((noinline)) static double f(double x, const Fs *fs) {
  double r = x;
  for (const auto &g : *fs) r = g(r);
  return r;
}
int main() {
  double c = 0.7;
  Fs fs;
  fs.push_back([](double v) { return std::sin(v) + v * v; });
  fs.push_back([c](double v) { return c * std::exp(0.5 * v); });
  double x = 0.4;
  double d = __enzyme_autodiff((void *)f, x, enzyme_const, &fs);
  double t = __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, &fs);
  double u = std::sin(x) + x * x;
  double want = c * 0.5 * std::exp(0.5 * u) * (std::cos(x) + 2 * x);
  CHECK("rev", d, want, 1e-12);
  CHECK("fwd", t, want, 1e-12);
  CHECK("fd", d, FD(x, f(x, &fs), 1e-6), 1e-6);
  CHECK_DONE();
}
