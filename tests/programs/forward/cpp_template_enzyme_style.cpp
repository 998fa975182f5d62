// C++ in the style of Enzyme's tests: the entry point declared as a
// (mangled, non-extern-"C") template, markers declared by hand, no header.
#include <cmath>
#include <cstdio>
#include <cstdlib>
extern int enzyme_dup;
extern int enzyme_const;
template <typename Ret, typename... Args> Ret __enzyme_fwddiff(Args...);
double __enzyme_fwddiff(void *, ...);

template <typename T> T cube_sum(const T *v, int n) {
  T s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i] * v[i];
  return s;
}
double smooth(double x) { return std::exp(-x) * std::sin(x); }

static int fails = 0;
static void expect(const char *what, double got, double want, double rel = 1e-12) {
  double tol = rel * (std::fabs(want) > 1 ? std::fabs(want) : 1);
  printf("%s %s: got %.17g want %.17g\n", std::fabs(got - want) <= tol ? "ok  " : "FAIL", what, got, want);
  if (!(std::fabs(got - want) <= tol)) fails++;
}
int main() {
  double v[3] = {1, 2, -1}, dv[3] = {0, 1, 1};
  double d = __enzyme_fwddiff<double>((void *)cube_sum<double>, enzyme_dup, v, dv, enzyme_const, 3);
  expect("template cube_sum", d, 3 * 4 + 3 * 1);
  double x = 0.5;
  double ds = __enzyme_fwddiff<double>((void *)smooth, x, 1.0);
  expect("template smooth", ds, std::exp(-x) * (std::cos(x) - std::sin(x)));
  double ds2 = __enzyme_fwddiff((void *)smooth, x, 1.0);
  expect("variadic smooth", ds2, std::exp(-x) * (std::cos(x) - std::sin(x)));
  double h = 1e-6;
  expect("fd", ds, (smooth(x + h) - smooth(x - h)) / (2 * h), 1e-6);
  return fails != 0;
}
