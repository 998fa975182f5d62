// Parameters a recursive derivative only hands on to itself
// (modes/reverse/selfargs.rs): the recursive calls pass poison for them.
// The recursive FFT's augmented sweep hands on the shadows of `in` and
// `out` and its reverse sweep the primal `in` and `out`; `keep` hands on an
// unused depth tag and one pointer through an offset. Must not apply:
// pointers handed on at swapped positions (`swapping`, where each level
// writes through the other one), and a pointer handed on at its own
// position and also at another one (`twice`). Every gradient is checked
// against central differences.
#include "../check.h"

#define N 16

static double TW[N];

#include "fft_kernel.h"

// n/2 complex values in x; f = sum_k (k+1) |X_k|^2.
double fft_obj(const double *x) {
  int n = N / 2;
  double *X = malloc(sizeof(double) * 2 * n);
  fft_rec(x, 1, X, n, TW, 1);
  double f = 0;
  for (int k = 0; k < n; k++) f += (k + 1) * (X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1]);
  free(X);
  return f;
}

// `tag` and `spare` are only handed on (spare through an offset).
static double keep(const double *x, double *spare, int tag, int i) {
  if (i == N) return 0;
  return sin(x[i]) * x[i] + keep(x, spare + 1, tag + 1, i + 1);
}
double kept(const double *x) {
  double spare[N + 1];
  return keep(x, spare, 0, 0);
}

// a is read and written; b, c are handed on at swapped positions, and
// each level's `a` is the previous level's `b` or `c`.
static void rot(double *a, double *b, double *c, const double *x, int i) {
  if (i == N) return;
  a[i % 4] = a[i % 4] * x[i] + x[(i + 3) % N];
  rot(b, c, a, x, i + 1);
}
double swapping(const double *x) {
  double a[4] = {1, 2, 3, 4}, b[4] = {0.5, 0.25, 1.5, 2}, c[4] = {1, 1, 1, 1};
  rot(a, b, c, x, 0);
  double f = 0;
  for (int k = 0; k < 4; k++) f += a[k] * a[k] + b[k] * c[k];
  return f;
}

// p is handed on at its own position and also as q: q is read.
static double two(const double *x, const double *p, const double *q, int i) {
  if (i == N) return 0;
  return x[i] * q[0] + two(x, p + 1, p + 1, i + 1);
}
double twice(const double *x) { return two(x, x, x, 0); }

#define CHECK_ONE(f, x)                                          \
  do {                                                           \
    double dx_[N] = {0}, fd_[N];                                 \
    char name_[64];                                              \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_);            \
    for (int i_ = 0; i_ < N; i_++) fd_[i_] = FD(x[i_], f(x), 1e-6); \
    for (int i_ = 0; i_ < N; i_++) {                             \
      snprintf(name_, sizeof name_, "%s dx[%d]", #f, i_);        \
      CHECK(name_, dx_[i_], fd_[i_], 1e-6);                      \
    }                                                            \
  } while (0)

int main(void) {
  for (int k = 0; k < N / 2; k++) {
    TW[2 * k] = cos(-6.283185307179586 * k / (N / 2));
    TW[2 * k + 1] = sin(-6.283185307179586 * k / (N / 2));
  }
  double x[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.7 * i + 0.2);
  CHECK_ONE(fft_obj, x);
  CHECK_ONE(kept, x);
  CHECK_ONE(swapping, x);
  CHECK_ONE(twice, x);
  CHECK_DONE();
}
