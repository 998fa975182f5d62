// <enzyme/enzyme> with a capture-free lambda converted to a function
// pointer (`+lambda`), and a function pointer returned by a helper that
// always returns the same function. At -O0 neither call is inlined: the
// differentiated function is the constant every return of the callee
// gives (the lambda's static invoker), found through the local slots the
// header's wrappers leave. Forward and reverse, against the analytic
// derivatives and central differences.
#include "check.h"
#include <cmath>
#include <enzyme/enzyme>
typedef double (*unary)(double);
static double wave(double x) { return std::sin(x) * x; }
__attribute__((noinline)) static unary pick_wave() { return wave; }
extern "C" double __enzyme_autodiff(void *, ...);
int main() {
  auto sq = [](double x) { return x * x * std::exp(x); };
  const double x = 0.7;
  double fwd = enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(+sq, enzyme::Duplicated<double>(x, 1.0)));
  double want = (2 * x + x * x) * std::exp(x);
  CHECK("+lambda forward", fwd, want, 1e-12);
  double rev = enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(+sq, enzyme::Active<double>(x))));
  CHECK("+lambda reverse", rev, want, 1e-12);
  double xv = x;
  CHECK("+lambda fd", rev, FD(xv, sq(xv), 1e-6), 1e-6);
  unary w = pick_wave();
  double dw = __enzyme_autodiff((void *)w, x);
  CHECK("returned pointer", dw, std::cos(x) * x + std::sin(x), 1e-12);
  CHECK_DONE();
}
