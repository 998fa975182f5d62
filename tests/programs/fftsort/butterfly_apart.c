// Butterflies whose two halves are a symbolic distance apart
// (modes/reverse/rev/apart.rs): the reverse stores each adjoint into its
// shadow slot directly, and drops the slot's zeroing, only where the
// distance is proved non-zero. A recursive radix-2 FFT (the benchmark's
// shape: out + 2k against out + 2(k + h), h = m / 2 under m > 1), a
// butterfly loop over k < h guarded by h > 0, and the same loop with a
// distance nothing bounds, run with h = 0 (the two halves are one slot)
// and h = 1. Every gradient is checked against central differences.
#include "../check.h"

#define N 16

static double TW[N];

__attribute__((noinline)) static void fft_rec(const double *in, int s, double *out, int m,
                                              const double *tw, int ts) {
  if (m == 1) {
    out[0] = in[0];
    out[1] = in[1];
    return;
  }
  int h = m / 2;
  fft_rec(in, 2 * s, out, h, tw, 2 * ts);
  fft_rec(in + 2 * s, 2 * s, out + 2 * h, h, tw, 2 * ts);
  for (int k = 0; k < h; k++) {
    double wr = tw[2 * k * ts], wi = tw[2 * k * ts + 1];
    double *e = out + 2 * k, *o = out + 2 * (k + h);
    double tr = wr * o[0] - wi * o[1], ti = wr * o[1] + wi * o[0];
    double er = e[0], ei = e[1];
    e[0] = er + tr;
    e[1] = ei + ti;
    o[0] = er - tr;
    o[1] = ei - ti;
  }
}

static double f_fft(double *x) {
  double X[2 * N];
  fft_rec(x, 1, X, N, TW, 1);
  double s = 0;
  for (int k = 0; k < N; k++) s += (k + 1) * (X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1]);
  return s;
}

// x[k], x[k + h] <- x[k] * x[k + h] + x[k], x[k] - x[k + h]^2.
__attribute__((noinline)) static void bf_guarded(double *x, int h) {
  if (h > 0)
    for (int k = 0; k < h; k++) {
      double a = x[k], b = x[k + h];
      x[k] = a * b + a;
      x[k + h] = a - b * b;
    }
}

// The same for k < n with h unbounded: h = 0 makes both halves one slot.
__attribute__((noinline)) static void bf_any(double *x, int h, int n) {
  for (int k = 0; k < n; k++) {
    double a = x[k], b = x[k + h];
    x[k] = a * b + a;
    x[k + h] = a - b * b;
  }
}

static double f_guarded(double *x) {
  bf_guarded(x, 3);
  bf_guarded(x, 2);
  double s = 0;
  for (int i = 0; i < 6; i++) s += (i + 1) * x[i] * x[i];
  return s;
}

static double f_any0(double *x) {
  bf_any(x, 0, 4);
  double s = 0;
  for (int i = 0; i < 4; i++) s += (i + 2) * x[i] * x[i];
  return s;
}

static double f_any1(double *x) {
  bf_any(x, 1, 3);
  double s = 0;
  for (int i = 0; i < 4; i++) s += (i + 2) * x[i] * x[i];
  return s;
}

#define GRAD(fn, x0, n, tol)                                                   \
  do {                                                                         \
    double x_[2 * N], d_[2 * N] = {0}, c_[2 * N];                              \
    for (int i = 0; i < (n); i++) x_[i] = (x0)[i];                             \
    __enzyme_autodiff((void *)fn, x_, d_);                                     \
    for (int i = 0; i < (n); i++) {                                            \
      double v_ = (x0)[i];                                                     \
      double fd_ = FD(v_, ({ for (int j = 0; j < (n); j++) c_[j] = (x0)[j];    \
                             c_[i] = v_; fn(c_); }), 1e-6);                    \
      CHECK(#fn, d_[i], fd_, (tol));                                           \
    }                                                                          \
  } while (0)

int main(void) {
  for (int k = 0; k < N / 2; k++) {
    TW[2 * k] = cos(-6.283185307179586 * k / N);
    TW[2 * k + 1] = sin(-6.283185307179586 * k / N);
  }
  double x0[2 * N];
  for (int i = 0; i < 2 * N; i++) x0[i] = sin(1.7 * i + 0.3) * 0.5;
  GRAD(f_fft, x0, 2 * N, 1e-6);
  GRAD(f_guarded, x0, 6, 1e-6);
  GRAD(f_any0, x0, 4, 1e-6);
  GRAD(f_any1, x0, 4, 1e-6);
  CHECK_DONE();
}
