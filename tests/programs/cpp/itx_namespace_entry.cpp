// Reverse mode (C++): entry points declared inside a namespace (mangled as
// nested names), with internal linkage, and as a template in a namespace;
// markers defined in the program.
#include "check.h"
#include <cmath>
int enzyme_dup, enzyme_const, enzyme_out;
namespace ad {
double __enzyme_autodiff(void *, double);
template <typename R, typename... A> R __enzyme_autodiff(void *, A...);
}  // namespace ad
static double __enzyme_autodiff_local(void *, int, double *, double *, int, int);
static double f(double x) { return std::sin(x) * std::exp(x); }
static double g(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i] * v[i];
  return s;
}
int main() {
  double x = 0.3;
  double d1 = ad::__enzyme_autodiff((void *)f, x);
  CHECK("namespace", d1, std::exp(x) * (std::sin(x) + std::cos(x)), 1e-12);
  double d2 = ad::__enzyme_autodiff<double>((void *)f, &enzyme_out, x);
  CHECK("namespace template", d2, d1, 1e-15);
  double v[3] = {1, -2, 0.5}, dv[3] = {0, 0, 0};
  __enzyme_autodiff_local((void *)g, enzyme_dup, v, dv, enzyme_const, 3);
  for (int i = 0; i < 3; i++) CHECK("internal linkage", dv[i], 3 * v[i] * v[i], 1e-12);
  CHECK_DONE();
}
