// std::vector, std::max, std::pow, std::hypot inside the differentiated
// code (at -O0 every STL call is a real call, with invokes).
#include "check.h"
#include <algorithm>
#include <cmath>
#include <vector>
template <typename R, typename... T> R __enzyme_autodiff(T...);
template <typename R, typename... T> R __enzyme_fwddiff(T...);
double sumvec(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) s += x * x;
  return s;
}
double f(double x) {
  std::vector<double> v;
  for (int i = 0; i < 5; i++) v.push_back(std::sin(x * i));
  return sumvec(v);
}
double g(double x, double y) { return std::max(x, y) * std::pow(x, 2.5) + std::hypot(x, y); }
int main() {
  double x = 0.7;
  CHECK("vector reverse", __enzyme_autodiff<double>((void *)f, x), FD(x, f(x), 1e-6), 1e-6);
  CHECK("vector forward", __enzyme_fwddiff<double>((void *)f, x, 1.0), FD(x, f(x), 1e-6), 1e-6);
  double a = 1.3, b = 0.5;
  CHECK("std math", __enzyme_autodiff<double>((void *)g, enzyme_out, a, enzyme_const, b), FD(a, g(a, b), 1e-6), 1e-6);
  CHECK_DONE();
}
