// Reverse mode (C++): a std::map<int, double> built inside the
// differentiated function (tree nodes allocated with new, rebalanced,
// destroyed), accumulating contributions per bucket.
// SKIP: std::map keeps `const int&` keys in std::tuple temporaries (forward_as_tuple): the pointer into the enzyme_const int array gets stored into shadowed memory, which the activity analysis reports as "the memory argument #2 of ... points to needs a shadow" (it should be its own shadow, but at -O1 the type analysis merges the int array with the map nodes' memory and believes it holds doubles); at -O3 also "no reverse-mode rule for pointer instruction 'extractvalue'". The libstdc++ tree functions (_Rb_tree_increment, _Rb_tree_insert_and_rebalance) are handled (run on the shadow tree). Before: clang crashed at -O1/-O2 (unbounded recursion in the activity analysis on p = p->next).
#include "check.h"
#include <cmath>
#include <map>
extern int enzyme_dup, enzyme_const;
extern "C" double __enzyme_autodiff(void *, ...);
static double f(const double *x, const int *bucket, int n) {
  std::map<int, double> sums;
  for (int i = 0; i < n; i++) sums[bucket[i]] += x[i] * x[i];
  double r = 0;
  for (const auto &kv : sums) r += std::sqrt(kv.second) * (kv.first + 1);
  return r;
}
int main() {
  const int n = 8;
  double x[n] = {0.5, 1.2, -0.7, 0.3, 2.0, -1.1, 0.9, 0.4}, dx[n] = {0};
  int bucket[n] = {3, 1, 3, 0, 1, 2, 0, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, bucket, enzyme_const, n);
  double s[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; i++) s[bucket[i]] += x[i] * x[i];
  for (int i = 0; i < n; i++) {
    int b = bucket[i];
    CHECK("dx analytic", dx[i], x[i] / std::sqrt(s[b]) * (b + 1), 1e-12);
    CHECK("dx fd", dx[i], FD(x[i], f(x, bucket, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
