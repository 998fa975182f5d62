// Reverse mode (C++): helpers that return std::vector<double> by value
// (sret, moves) and take them by value (copies) inside the differentiated
// function.
#include "check.h"
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static std::vector<double> squares(const double *x, int n) {
  std::vector<double> out(n);
  for (int i = 0; i < n; i++) out[i] = x[i] * x[i];
  return out;
}
static std::vector<double> smooth(std::vector<double> v) {
  for (size_t i = 1; i < v.size(); i++) v[i] = 0.5 * (v[i] + v[i - 1]);
  return v;
}
static double total(std::vector<double> v) {
  double s = 0;
  for (double e : v) s += std::sin(e);
  return s;
}
static double f(const double *x, int n) {
  std::vector<double> a = squares(x, n);
  std::vector<double> b = smooth(a);
  return total(b) + total(a);
}
int main() {
  const int n = 5;
  double x[n] = {0.3, -0.8, 1.2, 0.5, -0.1}, dx[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
  CHECK_DONE();
}
