// Selection sort in place (swaps chosen by data-dependent comparisons and
// an argmin), then f = sum_i w_i * s_i^2 / (1 + i). Gradient through the
// permutation; checked analytically and against finite differences.
#include "../check.h"

static double f(double *s, const double *w, int n) {
  for (int i = 0; i + 1 < n; i++) {
    int k = i;
    for (int j = i + 1; j < n; j++)
      if (s[j] < s[k]) k = j;
    if (k != i) {
      double t = s[i];
      s[i] = s[k];
      s[k] = t;
    }
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += w[i] * s[i] * s[i] / (1.0 + i);
  return r;
}

static void init(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = (double)((i * 11 + 3) % (n ? n : 1)) * 0.7 - 2.0 + 0.003 * i;
}

int main(void) {
  int sizes[] = {1, 2, 5, 16, 41};
  for (int si = 0; si < 5; si++) {
    int n = sizes[si];
    double x[48], s[48], w[48], ds[48] = {0};
    int perm[48];
    init(x, n);
    for (int i = 0; i < n; i++) {
      w[i] = 0.5 + 0.25 * i;
      perm[i] = i;
      s[i] = x[i];
    }
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && x[perm[j - 1]] > x[perm[j]]; j--) {
        int t = perm[j];
        perm[j] = perm[j - 1];
        perm[j - 1] = t;
      }
    __enzyme_autodiff((void *)f, enzyme_dup, s, ds, enzyme_const, w, enzyme_const, n);
    char name[64];
    for (int i = 0; i < n; i++) {
      snprintf(name, sizeof name, "n=%d ds[%d]", n, perm[i]);
      CHECK(name, ds[perm[i]], 2.0 * w[i] * x[perm[i]] / (1.0 + i), 1e-12);
      CHECK("sorted", s[i], x[perm[i]], 0);
    }
    for (int i = 0; i < n; i += 4) {
      double y[48];
      snprintf(name, sizeof name, "n=%d ds[%d] fd", n, i);
      double h = 1e-5, xp[48], xm[48];
      for (int k = 0; k < n; k++) xp[k] = xm[k] = x[k];
      xp[i] += h;
      xm[i] -= h;
      for (int k = 0; k < n; k++) y[k] = xp[k];
      double fp = f(y, w, n);
      for (int k = 0; k < n; k++) y[k] = xm[k];
      double fm = f(y, w, n);
      CHECK(name, ds[i], (fp - fm) / (2 * h), 1e-6);
    }
  }
  CHECK_DONE();
}
