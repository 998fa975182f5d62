// Heap shadows kept for the next call (modes/reverse/keep.rs,
// runtime/keep_rt.c): functions allocating and freeing a scratch buffer,
// differentiated again and again with sizes growing and shrinking (a kept
// block reused when it fits, replaced when too small or more than twice
// too large, small blocks not kept), with two live blocks of one site (a
// callee called twice), and with a calloc'd buffer whose shadow a call
// leaves nonzero: reused without zeroing, its stale adjoints would go into
// the next call's gradient. Every gradient is checked against the analytic
// value at every element and central differences at a few.
#include "../check.h"
#include <string.h>

// r = sum_k s[k] x[k] (s = 0 from calloc: adds 0, but leaves the shadow
// of s holding x after the reverse sweep) + sum_k (x[k]^2)^2 through s.
double stale(const double *x, int n) {
  double *s = calloc(n, sizeof(double));
  double r = 0;
  for (int k = 0; k < n; k++) r += s[k] * x[k];
  for (int k = 0; k < n; k++) s[k] = x[k] * x[k];
  for (int k = 0; k < n; k++) r += s[k] * s[k];
  free(s);
  return r;
}

// A prefix sum in a malloc'd scratch buffer: r = sum_k w_k c_k with
// c_k = x_0 + ... + x_k, w_k = 1 + k % 3; dr/dx_j = sum_{k >= j} w_k.
__attribute__((noinline)) static double prefix(const double *x, int n) {
  double *c = malloc(sizeof(double) * n);
  c[0] = x[0];
  for (int k = 1; k < n; k++) c[k] = c[k - 1] + x[k];
  double r = 0;
  for (int k = 0; k < n; k++) r += (1 + k % 3) * c[k];
  free(c);
  return r;
}

// Two calls of `prefix` (both blocks of its site live until the reverse
// sweep), on the two halves: the first scaled by 1/n, the second by 1/n^2
// and squared.
double twice(const double *x, int n) {
  int h = n / 2;
  double a = prefix(x, h) / n;
  double q = prefix(x + h, n - h) / ((double)n * n);
  return a + q * q;
}

static double want_prefix(int n, int j) {
  double s = 0;
  for (int k = j; k < n; k++) s += 1 + k % 3;
  return s;
}

#define NMAX 5000
static double X[NMAX], DX[NMAX];

static void fill(int n, int call) {
  for (int k = 0; k < n; k++) X[k] = 0.5 + 0.25 * sin(0.37 * k + call);
  memset(DX, 0, sizeof DX);
}

int main(void) {
  // Growing, reused smaller, too large to reuse, below the minimum, ...
  const int sizes[] = {600, 1200, 4000, 3000, 2100, 700, 100, 2600, 520, 5000, 4800};
  const int nsizes = sizeof sizes / sizeof sizes[0];
  char name[64];
  for (int c = 0; c < nsizes; c++) {
    int n = sizes[c];
    fill(n, c);
    __enzyme_autodiff((void *)stale, enzyme_dup, X, DX, enzyme_const, n);
    int bad = 0;
    for (int k = 0; k < n; k++)
      bad += !close_enough(DX[k], 4 * X[k] * X[k] * X[k], 1e-12);
    snprintf(name, sizeof name, "stale n=%d: elements wrong", n);
    CHECK(name, bad, 0, 0);
    for (int k = 0; k < n; k += n / 3) {
      snprintf(name, sizeof name, "stale n=%d fd[%d]", n, k);
      CHECK(name, DX[k], FD(X[k], stale(X, n), 1e-6), 1e-6);
    }
  }
  for (int c = 0; c < nsizes; c++) {
    int n = sizes[nsizes - 1 - c];
    fill(n, c);
    __enzyme_autodiff((void *)twice, enzyme_dup, X, DX, enzyme_const, n);
    int h = n / 2, bad = 0;
    double nn = (double)n * n, q = prefix(X + h, n - h) / nn;
    for (int k = 0; k < n; k++) {
      double w = k < h ? want_prefix(h, k) / n : 2 * q / nn * want_prefix(n - h, k - h);
      bad += !close_enough(DX[k], w, 1e-10);
    }
    snprintf(name, sizeof name, "twice n=%d: elements wrong", n);
    CHECK(name, bad, 0, 0);
    for (int k = 1; k < n; k += n / 3) {
      snprintf(name, sizeof name, "twice n=%d fd[%d]", n, k);
      CHECK(name, DX[k], FD(X[k], twice(X, n), 1e-5), 1e-5);
    }
  }
  CHECK_DONE();
}
