// std::complex<double> inside a differentiated function: products and
// quotients (__muldc3/__divdc3), std::abs/exp/log/arg/norm/conj.
#include "check.h"
#include <complex>

typedef std::complex<double> cd;

double energy(const double *x, int n) {
  cd acc(0.0, 0.0);
  for (int k = 0; k + 1 < n; k += 2) {
    cd z(x[k], x[k + 1]);
    acc += z * z / (z + cd(1.5, 0.25)) + std::exp(cd(0.1, 0.2) * z);
  }
  return std::abs(acc) + std::arg(acc) + std::norm(std::log(acc)) + std::real(std::conj(acc) * acc);
}

int main() {
  const int n = 6;
  double x[n] = { 0.3, -0.2, 0.8, 0.5, -0.6, 0.4 }, dx[n] = { 0 };
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; i++) CHECK("denergy", dx[i], FD(x[i], energy(x, n), 1e-6), 1e-6);
  double t[n] = { 0 };
  for (int i = 0; i < n; i++) {
    t[i] = 1;
    CHECK("fwd", __enzyme_fwddiff((void *)energy, enzyme_dup, x, t, enzyme_const, n), dx[i], 1e-10);
    t[i] = 0;
  }
  CHECK_DONE();
}
