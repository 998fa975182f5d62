// Reverse mode (C++): a model object holding its weights in a std::vector
// member, passed by reference with a shadow object of the same shape (the
// Enzyme way to differentiate w.r.t. a container's contents); a const
// member function computes a loss over a data set.
#include "check.h"
#include <cmath>
#include <vector>
struct Model {
  std::vector<double> w;
  double bias;
  double predict(const double *x) const {
    double s = bias;
    for (size_t i = 0; i < w.size(); i++) s += w[i] * x[i];
    return std::tanh(s);
  }
};
static double loss(const Model &m, const double *xs, const double *ys, int n, int d) {
  double l = 0;
  for (int k = 0; k < n; k++) {
    double e = m.predict(xs + k * d) - ys[k];
    l += e * e;
  }
  return l / n;
}
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, int, const Model *, Model *, int, const double *, int,
                       const double *, int, int, int, int);
int main() {
  const int n = 4, d = 3;
  double xs[n * d] = {0.1, 0.5, -0.3, 1.0, -0.2, 0.4, -0.7, 0.3, 0.9, 0.2, 0.2, -0.5};
  double ys[n] = {0.3, -0.1, 0.5, 0.0};
  Model m{{0.4, -0.6, 0.25}, 0.1};
  Model dm{{0, 0, 0}, 0};
  __enzyme_autodiff((void *)loss, enzyme_dup, &m, &dm, enzyme_const, xs, enzyme_const, ys,
                    enzyme_const, n, enzyme_const, d);
  for (int i = 0; i < d; i++)
    CHECK("dw fd", dm.w[i], FD(m.w[i], loss(m, xs, ys, n, d), 1e-6), 1e-6);
  CHECK("dbias fd", dm.bias, FD(m.bias, loss(m, xs, ys, n, d), 1e-6), 1e-6);
  double gb = 0;
  for (int k = 0; k < n; k++) {
    double p = m.predict(xs + k * d);
    gb += 2 * (p - ys[k]) * (1 - p * p) / n;
  }
  CHECK("dbias analytic", dm.bias, gb, 1e-12);
  CHECK_DONE();
}
