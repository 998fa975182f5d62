// Reverse and forward mode (C++): a std::vector<std::vector<double>>
// given by the caller with a shadow of the same shape (enzyme_dup), read
// and written inside the differentiated function, and a second one built
// inside it.
// (-O0: `t[i].push_back(v)` needs a shadow for the pointer operator[]
// returns into `t`, built here; std_function_arg.cpp's iterator over a
// constant vector must get none.)
#include "check.h"
#include <cmath>
#include <vector>
extern int enzyme_dup, enzyme_const;
typedef std::vector<std::vector<double>> M;
static void f(const M *a, M *out, double *res) {
  M t(a->size());
  for (size_t i = 0; i < a->size(); i++)
    for (size_t j = 0; j < (*a)[i].size(); j++) t[i].push_back((*a)[i][j] * (*a)[i][j]);
  double s = 0;
  for (size_t i = 0; i < t.size(); i++) {
    double row = 0;
    for (double v : t[i]) row += v;
    (*out)[i][0] = std::sqrt(row);
    s += std::sin(row);
  }
  *res = s;
}
static double g(M a) {
  M out(a.size(), std::vector<double>(1));
  double r;
  f(&a, &out, &r);
  return r + out[1][0];
}
int main() {
  M a = {{0.5, 1.2, -0.7}, {0.3, 2.0}, {-1.1, 0.9, 0.4, 0.1}};
  M da = {{0, 0, 0}, {0, 0}, {0, 0, 0, 0}};
  M out(3, std::vector<double>(1)), dout(3, std::vector<double>(1));
  double r, dr = 1.0;
  dout[1][0] = 1.0;
  __enzyme_autodiff((void *)f, enzyme_dup, &a, &da, enzyme_dup, &out, &dout, enzyme_dup, &r, &dr);
  for (size_t i = 0; i < a.size(); i++)
    for (size_t j = 0; j < a[i].size(); j++) {
      CHECK("da fd", da[i][j], FD(a[i][j], g(a), 1e-6), 1e-6);
      M ta = {{0, 0, 0}, {0, 0}, {0, 0, 0, 0}};
      ta[i][j] = 1;
      M tout(3, std::vector<double>(1));
      double r2, tr = 0;
      __enzyme_fwddiff((void *)f, enzyme_dup, &a, &ta, enzyme_dup, &out, &tout, enzyme_dup, &r2,
                       &tr);
      CHECK("fwd vs rev", tr + tout[1][0], da[i][j], 1e-12);
    }
  CHECK_DONE();
}
