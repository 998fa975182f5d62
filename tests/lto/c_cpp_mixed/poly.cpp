#include <array>
template <class T, std::size_t N> static T horner(const std::array<T, N> &c, T x) {
  T r = 0;
  for (std::size_t i = N; i-- > 0;) r = r * x + c[i];
  return r;
}
extern "C" double cxx_poly(double x) {
  std::array<double, 4> c = {1.0, -2.0, 0.5, 0.25};
  return horner(c, x);
}
