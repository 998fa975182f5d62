// Reverse mode (C++): a std::map<int, double> and a
// std::unordered_map<int, double> built inside the differentiated
// function, holding active values (nodes allocated with new, keys from a
// constant int array), then read back.
#include "check.h"
#include <cmath>
#include <map>
#include <unordered_map>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, const int *key, int n) {
  std::map<int, double> m;
  std::unordered_map<int, double> u;
  for (int i = 0; i < n; i++) {
    int k = key[i];
    m[k] += x[i] * x[i];
    u[k] += std::sin(x[i]);
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += m.at(key[i]) * u.at(key[i]);
  return r;
}
int main() {
  const int n = 6;
  double x[n] = {0.5, 1.2, -0.7, 0.3, 2.0, -1.1}, dx[n] = {0};
  int key[n] = {3, 1, 3, 0, 1, 2};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, key, enzyme_const, n);
  for (int i = 0; i < n; i++) CHECK("dx fd", dx[i], FD(x[i], f(x, key, n), 1e-6), 1e-6);
  CHECK_DONE();
}
