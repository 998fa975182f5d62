// Reverse mode (C++): template functions instantiated for float and double,
// and the entry point declared as a C++ template (a mangled name), with
// markers passed by address as C++ callers do.
#include "check.h"
template <typename T> T poly(T x, const T *c, int n) {
  T r = 0;
  for (int i = n - 1; i >= 0; i--) r = r * x + c[i];
  return r;
}
template <typename T> T wrapped(T x) {
  static const T c[4] = {T(1), T(-2), T(0.5), T(3)};
  return poly(x, c, 4) * std::exp(x / 4);
}
template <typename Ret, typename... Args> Ret __enzyme_autodiff(void *, Args...);
int main() {
  double x = 0.8;
  double dd = __enzyme_autodiff<double>((void *)wrapped<double>, x);
  CHECK("double", dd, FD(x, wrapped<double>(x), 1e-6), 1e-6);
  float xf = 0.8f;
  float df = __enzyme_autodiff<float>((void *)wrapped<float>, xf);
  CHECK("float", df, dd, 1e-4);
  double c[3] = {1, 2, 3}, dc[3] = {0, 0, 0};
  double dx = __enzyme_autodiff<double>((void *)poly<double>, &enzyme_out, x, &enzyme_dup, c,
                                        dc, &enzyme_const, 3);
  CHECK("poly dx", dx, 2 + 6 * x, 1e-12);
  CHECK("poly dc2", dc[2], x * x, 1e-12);
  CHECK_DONE();
}
