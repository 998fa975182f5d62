// Reverse mode (C++): one template function instantiated for float and
// double, with enzyme_dup arrays of each type and active scalars.
#include "check.h"
#include <cmath>
template <typename R, typename... A> R __enzyme_autodiff(void *, A...);
extern int enzyme_dup, enzyme_const, enzyme_out;
template <typename T> T softplus_sum(const T *x, T beta, int n) {
  T s = 0;
  for (int i = 0; i < n; i++) s += std::log(T(1) + std::exp(beta * x[i])) / beta;
  return s;
}
int main() {
  double xd[3] = {0.1, -0.5, 1.2}, dxd[3] = {0, 0, 0}, bd = 1.5;
  float xf[3] = {0.1f, -0.5f, 1.2f}, dxf[3] = {0, 0, 0}, bf = 1.5f;
  double dbd = __enzyme_autodiff<double>((void *)softplus_sum<double>, &enzyme_dup, xd, dxd,
                                         &enzyme_out, bd, &enzyme_const, 3);
  float dbf = __enzyme_autodiff<float>((void *)softplus_sum<float>, &enzyme_dup, xf, dxf,
                                       &enzyme_out, bf, &enzyme_const, 3);
  CHECK("db fd", dbd, FD(bd, softplus_sum<double>(xd, bd, 3), 1e-6), 1e-6);
  CHECK("float db", dbf, dbd, 1e-4);
  for (int i = 0; i < 3; i++) {
    double sig = 1 / (1 + std::exp(-bd * xd[i]));
    CHECK("dx analytic", dxd[i], sig, 1e-12);
    CHECK("float dx", dxf[i], dxd[i], 1e-5);
  }
  CHECK_DONE();
}
