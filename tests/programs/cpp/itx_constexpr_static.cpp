// Reverse mode (C++): constexpr helpers and tables, static member
// functions, a namespace-scope function template with a non-type template
// parameter (unrolled Horner), called through the template entry point.
#include "check.h"
#include <cmath>
namespace poly {
constexpr double coef[5] = {1.0, -0.5, 0.25, 2.0, -0.125};
constexpr double sq(double v) { return v * v; }
template <int N> double horner(double x) {
  double r = coef[N - 1];
  for (int i = N - 2; i >= 0; i--) r = r * x + coef[i];
  return r;
}
struct Model {
  static double eval(double x, double k) { return horner<5>(x) * std::exp(-sq(k * x)); }
};
}  // namespace poly
template <typename R, typename... A> R __enzyme_autodiff(void *, A...);
struct G2 {
  double dx, dk;
};
int main() {
  double x = 0.6, k = 0.8;
  G2 g = __enzyme_autodiff<G2>((void *)poly::Model::eval, x, k);
  double p = poly::horner<5>(x);
  double dp = -0.5 + 2 * 0.25 * x + 3 * 2.0 * x * x + 4 * -0.125 * x * x * x;
  double e = std::exp(-k * k * x * x);
  CHECK("dx analytic", g.dx, dp * e + p * e * (-2 * k * k * x), 1e-12);
  CHECK("dk analytic", g.dk, p * e * (-2 * k * x * x), 1e-12);
  CHECK("dx fd", g.dx, FD(x, poly::Model::eval(x, k), 1e-6), 1e-6);
  CHECK_DONE();
}
