// A heap shadow kept in its primal block (modes/reverse/inplace.rs): the
// recursive FFT of a malloc'd block X then the weighted sum of |X_k|^2
// (the reverse reads X[k] and first writes dX[k] in one iteration: dX
// lives in X), and the same with a loop reading only half of X (the rest
// of the block is zeroed before the FFT's reverse). Must not (each keeps
// a block of its own): X written by a loop of the function (its reverse
// reads and zeroes dX), a neighbour read (X[i+1] in iteration i), X read
// by two loops (the second loop's reverse writes dX before the first reads
// X), X stored in a global (escapes), X freed by a helper, and a block of
// pointers (the augmented sweep writes their shadows into dX). Every
// gradient is checked against central differences, twice for the two
// that apply (a second call must not see the first's block).
#include "../check.h"

#define N 512 /* 256 complex values: a block of 4096 bytes, kept */

static double TW[N], W[N];
static double *last_block;

#include "fft_kernel.h"

double fft_obj(const double *x) {
  int n = N / 2;
  double *X = malloc(sizeof(double) * 2 * n);
  fft_rec(x, 1, X, n, TW, 1);
  double f = 0;
  for (int k = 0; k < n; k++) f += W[k] * (X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1]);
  free(X);
  return f;
}

double elem_obj(const double *x) {
  double *X = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) X[i] = sin(x[i]) * x[i];
  double f = 0;
  for (int i = 0; i < N; i++) f += W[i] * X[i] * X[i];
  free(X);
  return f;
}

double neigh_obj(const double *x) {
  double *X = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) X[i] = sin(x[i]);
  double f = 0;
  for (int i = 0; i + 1 < N; i++) f += X[i] * X[i + 1];
  free(X);
  return f;
}

double twice_obj(const double *x) {
  double *X = malloc(sizeof(double) * N);
  fft_rec(x, 1, X, N / 2, TW, 1);
  double f = 0;
  for (int k = 0; k < N; k++) f += W[k] * X[k] * X[k];
  for (int k = 0; k < N; k++) f += X[k] * X[N - 1 - k];
  free(X);
  return f;
}

double escape_obj(const double *x) {
  double *X = malloc(sizeof(double) * N);
  last_block = X;
  fft_rec(x, 1, X, N / 2, TW, 1);
  double f = 0;
  for (int k = 0; k < N; k++) f += W[k] * X[k] * X[k];
  free(X);
  return f;
}

__attribute__((noinline)) static void release(double *p) { free(p); }
double helper_free_obj(const double *x) {
  double *X = malloc(sizeof(double) * N);
  fft_rec(x, 1, X, N / 2, TW, 1);
  double f = 0;
  for (int k = 0; k < N; k++) f += W[k] * X[k] * X[k];
  release(X);
  return f;
}

double part_obj(const double *x) {
  double *X = malloc(sizeof(double) * N);
  fft_rec(x, 1, X, N / 2, TW, 1);
  double f = 0;
  for (int k = 0; k < N / 2; k++) f += W[k] * X[k] * X[k];
  free(X);
  return f;
}

/* A block of pointers: the augmented sweep stores their shadows into dX. */
double ptrs_obj(const double *x) {
  const double **P = malloc(sizeof(double *) * N);
  for (int i = 0; i < N; i++) P[i] = &x[(i * 7) % N];
  double f = 0;
  for (int i = 0; i < N; i++) f += W[i] * *P[i] * *P[i];
  free(P);
  return f;
}

#define CHECK_ONE(f, x)                                             \
  do {                                                              \
    static double dx_[N], fd_[N];                                   \
    char name_[64];                                                 \
    for (int i_ = 0; i_ < N; i_++) dx_[i_] = 0;                     \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_);               \
    for (int i_ = 0; i_ < N; i_++) fd_[i_] = FD(x[i_], f(x), 1e-4); \
    for (int i_ = 0; i_ < N; i_++) {                                \
      snprintf(name_, sizeof name_, "%s dx[%d]", #f, i_);           \
      CHECK(name_, dx_[i_], fd_[i_], 1e-6);                         \
    }                                                               \
  } while (0)

int main(void) {
  for (int k = 0; k < N / 4; k++) {
    TW[2 * k] = cos(-6.283185307179586 * k / (N / 2));
    TW[2 * k + 1] = sin(-6.283185307179586 * k / (N / 2));
  }
  for (int i = 0; i < N; i++) W[i] = 0.5 + 0.01 * i;
  static double x[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.7 * i + 0.2);
  CHECK_ONE(fft_obj, x);
  CHECK_ONE(elem_obj, x);
  CHECK_ONE(neigh_obj, x);
  CHECK_ONE(twice_obj, x);
  CHECK_ONE(escape_obj, x);
  CHECK_ONE(helper_free_obj, x);
  CHECK_ONE(part_obj, x);
  CHECK_ONE(ptrs_obj, x);
  /* Called again: a second call must not see the first's block. */
  CHECK_ONE(fft_obj, x);
  CHECK_ONE(part_obj, x);
  CHECK_DONE();
}
