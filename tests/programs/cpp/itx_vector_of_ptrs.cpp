// Reverse mode (C++): a std::vector<const double*> grown with push_back
// inside the differentiated function: its reallocations move pointers to
// active memory (their shadows must move with them).
#include "check.h"
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  std::vector<const double *> big;
  for (int i = 0; i < n; i++)
    if (x[i] > 0) big.push_back(&x[i]);
  double s = 0;
  for (size_t k = 0; k < big.size(); k++) s += std::sqrt(*big[k]) * (double)(k + 1);
  return s;
}
int main() {
  const int n = 12;
  double x[n], dx[n] = {0};
  for (int i = 0; i < n; i++) x[i] = std::cos(0.9 * i) + 0.3;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  int k = 0;
  for (int i = 0; i < n; i++) {
    double want = 0;
    if (x[i] > 0) want = 0.5 / std::sqrt(x[i]) * (++k);
    CHECK("dx analytic", dx[i], want, 1e-12);
  }
  CHECK_DONE();
}
