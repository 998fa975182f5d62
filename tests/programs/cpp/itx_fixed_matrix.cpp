// Reverse mode (C++): a class template over its size holding a std::array,
// returned by value from operator* (matrix product) and used for a matrix
// power; the gradient w.r.t. the entries of the input matrix.
#include "check.h"
#include <array>
#include <cmath>
template <int N> struct Mat {
  std::array<double, N * N> a{};
  double &operator()(int i, int j) { return a[i * N + j]; }
  double operator()(int i, int j) const { return a[i * N + j]; }
  Mat operator*(const Mat &o) const {
    Mat r;
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        double s = 0;
        for (int k = 0; k < N; k++) s += (*this)(i, k) * o(k, j);
        r(i, j) = s;
      }
    return r;
  }
  double trace() const {
    double t = 0;
    for (int i = 0; i < N; i++) t += (*this)(i, i);
    return t;
  }
};
static double trace_cube(const Mat<3> *m) {
  Mat<3> m2 = *m * *m;
  Mat<3> m3 = m2 * *m;
  return m3.trace();
}
extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
int main() {
  Mat<3> m, dm;
  for (int i = 0; i < 9; i++) m.a[i] = std::sin(1.0 + i);
  __enzyme_autodiff((void *)trace_cube, enzyme_dup, &m, &dm);
  // d tr(M^3) / dM = 3 (M^2)^T
  Mat<3> m2 = m * m;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      CHECK("analytic", dm(i, j), 3 * m2(j, i), 1e-12);
      CHECK("fd", dm(i, j), FD(m.a[i * 3 + j], trace_cube(&m), 1e-6), 1e-6);
    }
  CHECK_DONE();
}
