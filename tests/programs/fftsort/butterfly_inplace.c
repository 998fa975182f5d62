// In-place updates whose reverse zeroes a shadow slot and then adds into
// it (modes/reverse/rev/mod.rs, `zeroed_just_before`): a butterfly on two
// neighbouring elements, an iterative in-place radix-2 FFT, a local buffer
// updated in place, and an update through two pointers that are the same
// memory (the zeroed slot must then see the other pointer's adjoint).
// Every gradient is checked against central differences.
#include "../check.h"

#define N 8

static void bfly(double *x) {
  double a = x[0], b = x[1];
  x[0] = a * b + a;
  x[1] = a - b * b;
}

// Iterative in-place FFT of N complex values (interleaved), bit-reversed
// input order is skipped: the derivative check does not need a true DFT.
static void fft_inplace(double *x, const double *tw) {
  for (int m = 2; m <= N; m *= 2) {
    int h = m / 2, ts = N / m;
    for (int s = 0; s < N; s += m)
      for (int k = 0; k < h; k++) {
        double wr = tw[2 * k * ts], wi = tw[2 * k * ts + 1];
        double *e = x + 2 * (s + k), *o = x + 2 * (s + k + h);
        double tr = wr * o[0] - wi * o[1], ti = wr * o[1] + wi * o[0];
        double er = e[0], ei = e[1];
        e[0] = er + tr;
        e[1] = ei + ti;
        o[0] = er - tr;
        o[1] = ei - ti;
      }
  }
}

static double TW[N];

static double f_fft(double *x) {
  fft_inplace(x, TW);
  double s = 0;
  for (int k = 0; k < N; k++) s += (k + 1) * (x[2 * k] * x[2 * k] + x[2 * k + 1] * x[2 * k + 1]);
  return s;
}

static double f_bfly(double *x) {
  bfly(x);
  bfly(x);
  return x[0] * 3 + x[1] * x[0];
}

static double f_local(const double *x0) {
  double t[2] = {x0[0], x0[1]};
  bfly(t);
  return t[0] * t[1];
}

// p and q may be the same memory: *p's zeroed slot is *q's too.
__attribute__((noinline)) static void upd(double *p, double *q) {
  double u = *p, v = *q;
  *p = u * v;
  *q = u + 2 * v;
}
static double f_alias(double *x) {
  upd(x, x);
  upd(x, x + 1);
  return x[0] * x[1];
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
  for (int i = 0; i < 2 * N; i++) x0[i] = sin(1.7 * i + 0.3);
  GRAD(f_fft, x0, 2 * N, 1e-6);
  GRAD(f_bfly, x0, 2, 1e-6);
  GRAD(f_local, x0, 2, 1e-6);
  GRAD(f_alias, x0, 2, 1e-6);
  CHECK_DONE();
}
