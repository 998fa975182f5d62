// Reverse and forward mode (C++): std::unordered_map lookups inside the
// differentiated function. The map (int keys and std::string keys) is
// built by the caller and passed as a constant; libstdc++'s hashing
// (std::_Hash_bytes) and bucket search have integer results: inactive.
#include "check.h"
#include <cmath>
#include <string>
#include <unordered_map>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
typedef std::unordered_map<int, double> IntMap;
typedef std::unordered_map<std::string, int> NameMap;
static double f(const double *x, const IntMap *w, const NameMap *slot, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    auto it = w->find(i % 3);
    double wi = it == w->end() ? 1.0 : it->second;
    r += wi * x[i] * x[i];
  }
  r += x[slot->at("alpha")] * std::sin(x[slot->at("beta")]);
  return r;
}
int main() {
  const int n = 6;
  double x[n] = {0.5, 1.2, -0.7, 0.3, 2.0, -1.1}, dx[n] = {0};
  IntMap w = {{0, 2.0}, {1, -0.5}};
  NameMap slot = {{"alpha", 4}, {"beta", 1}};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, &w, enzyme_const, &slot,
                    enzyme_const, n);
  for (int i = 0; i < n; i++) {
    CHECK("dx fd", dx[i], FD(x[i], f(x, &w, &slot, n), 1e-6), 1e-6);
    double tx[n] = {0};
    tx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, &w, enzyme_const,
                                &slot, enzyme_const, n);
    CHECK("fwd vs rev", t, dx[i], 1e-12);
  }
  double wi0 = 2.0;
  CHECK("dx0 analytic", dx[0], 2 * wi0 * x[0], 1e-12);
  CHECK_DONE();
}
