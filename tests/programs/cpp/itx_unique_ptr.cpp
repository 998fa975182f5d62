// Reverse mode (C++): std::unique_ptr<double[]> and std::make_unique of a
// struct as scratch memory inside the differentiated function.
#include "check.h"
#include <cmath>
#include <memory>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
struct Acc {
  double s = 0, p = 1;
};
static double f(const double *x, int n) {
  std::unique_ptr<double[]> buf(new double[n]);
  for (int i = 0; i < n; i++) buf[i] = std::exp(0.5 * x[i]);
  auto acc = std::make_unique<Acc>();
  for (int i = 0; i < n; i++) {
    acc->s += buf[i];
    acc->p *= buf[i];
  }
  return acc->s * acc->p;
}
int main() {
  const int n = 4;
  double x[n] = {0.2, -0.3, 0.8, 0.1}, dx[n] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) s += std::exp(0.5 * x[i]), p *= std::exp(0.5 * x[i]);
  for (int i = 0; i < n; i++) {
    double e = std::exp(0.5 * x[i]);
    CHECK("dx analytic", dx[i], 0.5 * e * p + s * p * 0.5, 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
