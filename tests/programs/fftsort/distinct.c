// Distinct memory carried from a call site into the callee's derivative
// (modes/reverse/distinct.rs): an output block the caller allocates and
// keeps to itself cannot be a table the callee only reads, so the reverse
// sweep reads the table again instead of taping it (a recursive FFT's
// twiddles). The other cases must not be taken as distinct: the table is
// the output block itself (passed twice, or stashed where the callee loads
// it from), the callee writes the table, or a recursive call swaps its
// buffers. Every gradient is checked against central differences.
#include "../check.h"

#define N 16
typedef struct {
  int n;
  double *tw; // twiddles, only read
} ctx_t;

static double TW[N], TAB[N];
static ctx_t C;

#include "fft_kernel.h"

// n/2 complex values in x; f = sum_k (k+1) |X_k|^2.
double fft_obj(const double *x, const ctx_t *c) {
  int n = c->n / 2;
  double *X = malloc(sizeof(double) * 2 * n);
  fft_rec(x, 1, X, n, c->tw, 1);
  double f = 0;
  for (int k = 0; k < n; k++) f += (k + 1) * (X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1]);
  free(X);
  return f;
}

// Reads tw[i], writes out[n-1-i]: when out is tw, the table changes after
// it is read.
__attribute__((noinline)) static void mirror(const double *x, const double *tw, double *out, int n) {
  for (int i = 0; i < n; i++) {
    double t = tw[i];
    out[n - 1 - i] = t * t * x[i];
  }
}

// The same block as table and output.
double same_block(const double *x, const ctx_t *c) {
  int n = c->n;
  double *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) b[i] = TAB[i] + x[i];
  mirror(x, b, b, n);
  double f = 0;
  for (int i = 0; i < n; i++) f += b[i] * b[i];
  free(b);
  return f;
}

// The output block is stashed in a global the table pointer is loaded from.
static double *STASH;
double stashed(const double *x, const ctx_t *c) {
  int n = c->n;
  double *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) b[i] = TAB[i] + x[i];
  STASH = b;
  mirror(x, STASH, b, n);
  double f = 0;
  for (int i = 0; i < n; i++) f += b[i] * b[i];
  STASH = 0;
  free(b);
  return f;
}

// The callee rescales the table after reading it.
__attribute__((noinline)) static void rescale(const double *x, double *tw, double *out, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = sin(tw[i] * x[i]);
    tw[i] *= 1.5;
  }
}
double rescaled(const double *x, const ctx_t *c) {
  int n = c->n;
  double *b = malloc(sizeof(double) * n), *t = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) t[i] = TAB[i] * x[i];
  rescale(x, t, b, n);
  rescale(x, t, b + n / 2, n / 2);
  double f = 0;
  for (int i = 0; i < n; i++) f += b[i] * b[i] + t[i];
  free(b);
  free(t);
  return f;
}

// Reads b, writes a, then swaps them: b is written by the recursive call.
static void swapper(double *a, double *b, const double *x, int n, int d) {
  for (int i = 0; i < n; i++) a[i] = a[i] * b[i] + x[i];
  if (d > 0) swapper(b, a, x, n, d - 1);
}
double swapped(const double *x, const ctx_t *c) {
  int n = c->n;
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) a[i] = 0.5 + 0.1 * x[i], b[i] = TAB[i];
  swapper(a, b, x, n, 3);
  double f = 0;
  for (int i = 0; i < n; i++) f += a[i] + b[i] * b[i];
  free(a);
  free(b);
  return f;
}

static void compare(const char *what, const double *dx, double *fd) {
  char name[64];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "%s dx[%d]", what, i);
    CHECK(name, dx[i], fd[i], 1e-6);
  }
}

#define CHECK_ONE(f, x)                                                         \
  do {                                                                          \
    double dx_[N] = {0}, fd_[N];                                                \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_, enzyme_const, &C);         \
    for (int i_ = 0; i_ < N; i_++) fd_[i_] = FD(x[i_], f(x, &C), 1e-6);         \
    compare(#f, dx_, fd_);                                                      \
  } while (0)

int main(void) {
  for (int k = 0; k < N / 2; k++) {
    TW[2 * k] = cos(-6.283185307179586 * k / (N / 2));
    TW[2 * k + 1] = sin(-6.283185307179586 * k / (N / 2));
  }
  double x[N];
  for (int i = 0; i < N; i++) TAB[i] = 0.3 + 0.05 * i, x[i] = sin(0.7 * i + 0.2);
  C = (ctx_t){N, TW};
  CHECK_ONE(fft_obj, x);
  CHECK_ONE(same_block, x);
  CHECK_ONE(stashed, x);
  CHECK_ONE(rescaled, x);
  CHECK_ONE(swapped, x);
  CHECK_DONE();
}
