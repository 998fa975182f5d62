// Kept heap shadows (modes/reverse/keep.rs) of C++ `new[]` / `delete[]`
// scratch: the shadow is taken from the site's slot and given back (not
// deleted) by the reverse sweep; sizes grow and shrink between calls.
// Checked at every element against the analytic gradient and by central
// differences at a few.
#include "../check.h"
#include <cstring>

// t = x scaled by its position, then r = sum_k t_k t_{k+1}.
double pairs(const double *x, int n) {
  double *t = new double[n];
  for (int k = 0; k < n; k++) t[k] = (1 + k % 4) * x[k];
  double r = 0;
  for (int k = 0; k + 1 < n; k++) r += t[k] * t[k + 1];
  delete[] t;
  return r;
}

static double X[4000], DX[4000];

int main() {
  const int sizes[] = {1000, 3000, 600, 2000, 1500, 4000};
  char name[64];
  for (int n : sizes) {
    for (int k = 0; k < n; k++) X[k] = 0.1 + 0.3 * cos(0.11 * k + n);
    std::memset(DX, 0, sizeof DX);
    __enzyme_autodiff((void *)pairs, enzyme_dup, X, DX, enzyme_const, n);
    int bad = 0;
    for (int k = 0; k < n; k++) {
      double w = 0, c = 1 + k % 4;
      if (k > 0) w += c * (1 + (k - 1) % 4) * X[k - 1];
      if (k + 1 < n) w += c * (1 + (k + 1) % 4) * X[k + 1];
      bad += !close_enough(DX[k], w, 1e-12);
    }
    snprintf(name, sizeof name, "pairs n=%d: elements wrong", n);
    CHECK(name, bad, 0, 0);
    snprintf(name, sizeof name, "pairs n=%d fd[%d]", n, n / 2);
    CHECK(name, DX[n / 2], FD(X[n / 2], pairs(X, n), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
