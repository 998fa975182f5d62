// Reverse mode (C++): std::array by reference and by value-copy inside,
// with range-for and std::array::operator[].
#include "check.h"
#include <array>
#include <cmath>
template <typename R, typename... A> R __enzyme_autodiff(void *, A...);
int enzyme_dup, enzyme_out;
using A4 = std::array<double, 4>;
static double f(const A4 &a, double t) {
  A4 b = a;
  for (auto &e : b) e = std::tanh(e * t);
  double s = 0;
  for (size_t i = 0; i < b.size(); i++) s += b[i] * a[b.size() - 1 - i];
  return s;
}
int main() {
  A4 a = {0.2, -0.4, 0.9, 1.3}, da = {0, 0, 0, 0};
  double t = 0.7;
  double dt = __enzyme_autodiff<double>((void *)f, &enzyme_dup, &a, &da, &enzyme_out, t);
  CHECK("dt fd", dt, FD(t, f(a, t), 1e-6), 1e-6);
  for (int i = 0; i < 4; i++) CHECK("da fd", da[i], FD(a[i], f(a, t), 1e-6), 1e-6);
  CHECK_DONE();
}
