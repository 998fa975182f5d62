// Reverse mode (C++): a std::vector<double> grown with push_back inside the
// differentiated function (reallocation moves the doubles with memmove /
// memcpy, operator new / delete), then read back.
#include "check.h"
#include <cmath>
#include <vector>
template <typename R, typename... A> R __enzyme_autodiff(void *, A...);
extern int enzyme_dup, enzyme_const;
static double f(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; i++) {
    v.push_back(x[i] * x[i]);
    v.push_back(std::cos(x[i]));
  }
  std::vector<double> r(v.rbegin(), v.rend());
  double s = 0;
  for (size_t i = 0; i < r.size(); i++) s += r[i] * (double)(i + 1);
  return s;
}
int main() {
  const int n = 7;  // 14 elements: several reallocations
  double x[n], dx[n];
  for (int i = 0; i < n; i++) x[i] = 0.3 * i - 0.7, dx[i] = 0;
  __enzyme_autodiff<void>((void *)f, &enzyme_dup, x, dx, &enzyme_const, n);
  for (int i = 0; i < n; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, n), 1e-6), 1e-6);
  // analytic: element 2i is at reversed position 2n-1-2i (weight 2n-2i)
  for (int i = 0; i < n; i++) {
    double want = 2 * x[i] * (2 * n - 2 * i) - std::sin(x[i]) * (2 * n - 2 * i - 1);
    CHECK("dx analytic", dx[i], want, 1e-12);
  }
  CHECK_DONE();
}
