// Parameters of a finished augmented function marked read-only / not
// captured from its body (modes/reverse/distinct.rs, mark_finished_aug):
// a table reached through a loaded pointer is read again by the reverse
// sweep when the helper called before cannot write it, and taped when it
// can (the helper writes the table through another parameter); a helper
// that writes its input in place keeps that parameter unmarked. Every gradient is
// checked against central differences.
#include "../check.h"
#include <stdlib.h>

#define N 6
typedef struct {
  int n;
  double *w;
} ctx_t;

__attribute__((noinline)) static void fill(const double *in, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = in[i] * in[i] + sin(in[i]);
}
// Writes the table it is given (the same memory as c->w).
__attribute__((noinline)) static void fill_and_bump(const double *in, double *out, double *tab, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = in[i] * in[i];
    tab[i] += 0.5;
  }
}
// Writes through its input (an in-place pre-scaling of the argument).
__attribute__((noinline)) static void fill_inplace(double *in, double *out, int n) {
  for (int i = 0; i < n; i++) {
    in[i] *= 1.5;
    out[i] = in[i] * in[i];
  }
}

static double f_read(double *x, const ctx_t *c) {
  int n = c->n;
  double *X = malloc(sizeof(double) * n);
  fill(x, X, n);
  double f = 0;
  for (int k = 0; k < n; k++) f += c->w[k] * X[k] * X[k];
  free(X);
  return f;
}
static double f_bump(double *x, const ctx_t *c) {
  int n = c->n;
  double *X = malloc(sizeof(double) * n);
  fill_and_bump(x, X, c->w, n);
  double f = 0;
  for (int k = 0; k < n; k++) f += c->w[k] * X[k] * X[k];
  free(X);
  return f;
}
// fill_inplace writes the argument's memory (its parameter is not
// read-only), the table is apart.
static double f_inplace(double *x, const ctx_t *c) {
  int n = c->n;
  double *X = malloc(sizeof(double) * n);
  fill_inplace(x, X, n);
  double f = 0;
  for (int k = 0; k < n; k++) f += c->w[k] * X[k];
  free(X);
  return f;
}

// The table is written after the loop read it (by a helper that takes
// it as its second parameter, beside the argument it only reads): the
// reverse sweep must use the values the loop read.
__attribute__((noinline)) static void bump(const double *x, double *tab, int n) {
  for (int i = 0; i < n; i++) tab[i] = 2 * tab[i] + (x[i] > 0 ? 1 : 0);
}
static double f_after(double *x, const ctx_t *c) {
  int n = c->n;
  double *X = malloc(sizeof(double) * n);
  fill(x, X, n);
  double f = 0;
  for (int k = 0; k < n; k++) f += c->w[k] * X[k] * X[k];
  bump(x, c->w, n);
  free(X);
  return f;
}

static double W[N], W0[N];
static void reset_w(void) {
  for (int i = 0; i < N; i++) W[i] = W0[i];
}

#define GRAD(fn, tabarg)                                                    \
  do {                                                                      \
    double x0[N], x_[N], d_[N] = {0}, c_[N];                                \
    for (int i = 0; i < N; i++) x0[i] = 0.3 + 0.2 * i - 0.05 * i * i;       \
    ctx_t ctx = {N, W};                                                     \
    for (int i = 0; i < N; i++) x_[i] = x0[i];                              \
    if (tabarg) ctx.w = x_;                                                 \
    reset_w();                                                              \
    __enzyme_autodiff((void *)fn, enzyme_dup, x_, d_, enzyme_const, &ctx);  \
    for (int i = 0; i < N; i++) {                                           \
      double v_ = x0[i];                                                    \
      double fd_ = FD(v_, ({                                                \
        for (int j = 0; j < N; j++) c_[j] = x0[j];                          \
        c_[i] = v_;                                                         \
        ctx_t cc = {N, W};                                                  \
        if (tabarg) cc.w = c_;                                              \
        reset_w();                                                          \
        fn(c_, &cc);                                                        \
      }), 1e-6);                                                            \
      CHECK(#fn, d_[i], fd_, 1e-6);                                         \
    }                                                                       \
  } while (0)

int main(void) {
  for (int i = 0; i < N; i++) W0[i] = 1.0 + 0.25 * i;
  GRAD(f_read, 0);
  GRAD(f_bump, 0);
  GRAD(f_inplace, 0);
  GRAD(f_after, 0);
  CHECK_DONE();
}
