// Reverse mode (C++): std::complex<double> arithmetic (multiplication and
// division go through __muldc3/__divdc3 without -ffast-math), std::abs and
// std::exp of complex values.
#include "check.h"
#include <complex>
extern "C" double __enzyme_autodiff(void *, ...);
using cd = std::complex<double>;
static double f(double a, double b) {
  cd z(a, b);
  cd w = z * z + cd(1.0, -0.5) * z;
  cd q = w / (z + cd(2.0, 1.0));
  return std::abs(q) + std::real(std::exp(z * cd(0.0, 1.0)));
}
struct G2 {
  double da, db;
};
extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" G2 __enzyme_autodiff2(void *, double, double) __asm__("__enzyme_autodiff");
int main() {
  double a = 0.7, b = -0.4;
  G2 g = __enzyme_autodiff2((void *)f, a, b);
  CHECK("da fd", g.da, FD(a, f(a, b), 1e-6), 1e-6);
  CHECK("db fd", g.db, FD(b, f(a, b), 1e-6), 1e-6);
  // Forward mode lowers the same runtime calls.
  double t = __enzyme_fwddiff((void *)f, a, 1.0, b, 0.5);
  CHECK("forward", t, g.da + 0.5 * g.db, 1e-10);
  CHECK_DONE();
}
