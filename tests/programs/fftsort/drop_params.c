// Parameters a recursive derivative no longer reads leave its signature
// (modes/reverse/selfargs.rs, drop_unused): the recursive FFT's sweeps
// (nine parameters down to six), `deep` with eleven parameters of which
// the depth tags and an unused buffer are only handed on (the rest, on the
// stack before, now fit the registers better), and `cube_rec`, whose tape,
// shadows and adjoint must stay (its scratch shadow is written and read).
// Every gradient is checked against central differences.
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

// tag, spare and depth are only handed on; w, y, scale and n are read.
static double deep(const double *x, int i, int n, double scale, const double *w, int tag,
                   double *spare, int depth, const double *y, double bias, int stride) {
  if (i >= n) return bias;
  double v = sin(x[i] * w[i]) * scale + y[i] * x[i] * x[i];
  return v + deep(x, i + stride, n, scale * 0.9, w, tag + 1, spare + 1, depth + 2, y, bias, stride);
}
static double W[N], Y[N];
double deep_obj(const double *x) {
  double spare[N + 1];
  return deep(x, 0, N, 1.5, W, 0, spare, 0, Y, 0.25, 1);
}

// The scratch shadow is written and read; the tape and adjoint are read.
static double cube_rec(const double *x, double *scratch, int n) {
  if (n == 0) return 0;
  scratch[0] = x[0] * x[0];
  return scratch[0] * x[0] + cube_rec(x + 1, scratch + 1, n - 1);
}
double cube_obj(const double *x) {
  double scratch[N];
  return cube_rec(x, scratch, N);
}

#define CHECK_ONE(f, x)                                             \
  do {                                                              \
    double dx_[N] = {0}, fd_[N];                                    \
    char name_[64];                                                 \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_);               \
    for (int i_ = 0; i_ < N; i_++) fd_[i_] = FD(x[i_], f(x), 1e-6); \
    for (int i_ = 0; i_ < N; i_++) {                                \
      snprintf(name_, sizeof name_, "%s dx[%d]", #f, i_);           \
      CHECK(name_, dx_[i_], fd_[i_], 1e-6);                         \
    }                                                               \
  } while (0)

int main(void) {
  for (int k = 0; k < N / 2; k++) {
    TW[2 * k] = cos(-6.283185307179586 * k / (N / 2));
    TW[2 * k + 1] = sin(-6.283185307179586 * k / (N / 2));
  }
  for (int i = 0; i < N; i++) {
    W[i] = 0.5 + 0.1 * i;
    Y[i] = cos(0.3 * i);
  }
  double x[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.7 * i + 0.2);
  CHECK_ONE(fft_obj, x);
  CHECK_ONE(deep_obj, x);
  CHECK_ONE(cube_obj, x);
  CHECK_DONE();
}
