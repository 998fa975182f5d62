// Reverse and forward mode (C++): std::map lookups inside the
// differentiated function: a constant std::map<int, double> of weights
// (find / count / lower_bound walk the red-black tree: integer and pointer
// results, inactive) and a std::map<std::string, int> of indices.
#include "check.h"
#include <cmath>
#include <map>
#include <string>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double __enzyme_fwddiff(void *, ...);
typedef std::map<int, double> W;
typedef std::map<std::string, int> Idx;
static double f(const double *x, const W *w, const Idx *idx, int n) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    double wi = w->count(i) ? w->at(i) : w->lower_bound(i)->second;
    r += wi * std::exp(0.3 * x[i]);
  }
  auto a = idx->find("a");
  if (a != idx->end()) r *= x[a->second];
  return r;
}
int main() {
  const int n = 5;
  double x[n] = {0.5, 1.2, -0.7, 0.3, 2.0}, dx[n] = {0};
  W w = {{0, 1.5}, {2, -0.25}, {3, 0.75}, {9, 2.0}};
  Idx idx = {{"a", 3}, {"b", 0}};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, &w, enzyme_const, &idx,
                    enzyme_const, n);
  for (int i = 0; i < n; i++) {
    CHECK("dx fd", dx[i], FD(x[i], f(x, &w, &idx, n), 1e-6), 1e-6);
    double tx[n] = {0};
    tx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, &w, enzyme_const,
                                &idx, enzyme_const, n);
    CHECK("fwd vs rev", t, dx[i], 1e-12);
  }
  CHECK_DONE();
}
