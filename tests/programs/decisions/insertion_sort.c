// Insertion sort of a copy of x, then f = sum_i w_i * sorted_i: the inner
// while loop's trip count depends on the data. The gradient scatters w
// through the sorting permutation: g[perm[i]] = w[i]; checked against that
// and central finite differences (the values are far enough apart that the
// step never reorders them).
#include "../check.h"

static double f(const double *x, const double *w, int n) {
  double *s = (double *)malloc(sizeof(double) * (n > 0 ? n : 1));
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) {
      s[j + 1] = s[j];
      j--;
    }
    s[j + 1] = key;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += w[i] * s[i] * (1.0 + 0.1 * s[i]);
  free(s);
  return r;
}

int main(void) {
  int sizes[] = {0, 1, 2, 3, 8, 37};
  for (int si = 0; si < 6; si++) {
    int n = sizes[si];
    double x[40], w[40], dx[40] = {0};
    int perm[40];
    for (int i = 0; i < n; i++) {
      x[i] = (double)((i * 17 + 5) % n) + 0.01 * i;
      w[i] = 1.0 + 0.5 * i;
      perm[i] = i;
    }
    // the permutation, by a separate sort of the indices
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && x[perm[j - 1]] > x[perm[j]]; j--) {
        int t = perm[j];
        perm[j] = perm[j - 1];
        perm[j - 1] = t;
      }
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, n);
    char name[64];
    for (int i = 0; i < n; i++) {
      double s = x[perm[i]];
      snprintf(name, sizeof name, "n=%d dx[%d]", n, perm[i]);
      CHECK(name, dx[perm[i]], w[i] * (1.0 + 0.2 * s), 1e-12);
    }
    for (int i = 0; i < n; i += 3) {
      snprintf(name, sizeof name, "n=%d dx[%d] fd", n, i);
      CHECK(name, dx[i], FD(x[i], f(x, w, n), 1e-5), 1e-6);
    }
  }
  CHECK_DONE();
}
