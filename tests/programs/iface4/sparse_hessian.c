// FLAGS: -fplugin=%plugin -mllvm -enzyme-auto-sparsity=1
// A sparse Hessian the way Enzyme's sparse examples build one: forward mode
// over a gradient, the gradient's own output passed enzyme_dupnoneed with a
// primal pointer that is never valid (the caller wants only its tangent,
// the Hessian's column; its primal writes are dropped), and the input a
// pointer whose memory is functions (`x = __enzyme_post_sparse_todense(
// load, store, x, n)`, reassigning the variable at -O0 too: a ring of n
// values read at any index). The column's nonzeros are written into
// triplets by a todense store. Checked against the
// analytic Hessian and central differences of the analytic gradient.
// (-enzyme-auto-sparsity is accepted; the derivative stays dense.)
#include "check.h"
#include <stdint.h>
#include <string.h>
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
double *__enzyme_todense(void *, void *, ...);
double *__enzyme_post_sparse_todense(void *, void *, ...);

enum { N = 6 };
// Read through the ring: x[off/8 mod n].
static double ring_load(int64_t off, const double *x, long n) { return x[(off / 8) % n]; }
static void ring_store(double v, int64_t off, const double *x, long n) { abort(); }

// f(x) = sum_i (x_{i+1} - x_i)^2 * x_i over the ring of N values (x[n]
// is x[0], through the ring's load function).
static double energy(double *x, long n) {
  double e = 0;
  for (long i = 0; i < n; i++) {
    double d = x[i + 1] - x[i];
    e += d * d * x[i];
  }
  return e;
}
static void gradient(double *x, double *g, long n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, n);
}

typedef struct {
  int n;
  long row[64];
  double val[64];
} Column;
// The seed and the column follow the ring too: entry N is entry 0.
static double one_hot(int64_t off, long j) { return (off / 8) % N == j ? 1.0 : 0.0; }
static void no_store(double v, int64_t off, long j) { abort(); }
static double zero_load(int64_t off, Column *c) { return 0.0; }
static void keep_nonzero(double v, int64_t off, Column *c) {
  if (v != 0 && c->n < 64) {
    c->row[c->n] = (off / 8) % N;
    c->val[c->n++] = v;
  }
}

static double grad_exact(const double *x, int k) {
  // d/dx_k of sum_i (x_{i+1}-x_i)^2 x_i, indices mod N.
  int p = (k + N - 1) % N, s = (k + 1) % N;
  double a = x[k] - x[p], b = x[s] - x[k];
  return 2 * a * x[p] - 2 * b * x[k] + b * b;
}

__attribute__((noinline)) static void hessian_column(double *x, long j, Column *col) {
  double *never = (double *)(uintptr_t)0x1000; // not memory: never written
  x = __enzyme_post_sparse_todense((void *)ring_load, (void *)ring_store, x, (long)N);
  double *seed = __enzyme_todense((void *)one_hot, (void *)no_store, j);
  double *out = __enzyme_todense((void *)zero_load, (void *)keep_nonzero, col);
  __enzyme_fwddiff((void *)gradient, enzyme_dup, x, seed, enzyme_dupnoneed, never, out,
                   enzyme_const, (long)N);
}

int main(void) {
  double x[N] = {0.3, -1.1, 0.8, 1.7, -0.4, 0.9};
  for (long j = 0; j < N; j++) {
    Column col = {0};
    hessian_column(x, j, &col);
    double dense[N];
    memset(dense, 0, sizeof dense);
    for (int k = 0; k < col.n; k++) dense[col.row[k]] += col.val[k];
    CHECK("stores of nonzeros", col.n > 0 && col.n <= 8, 1, 0);
    for (int i = 0; i < N; i++)
      CHECK("H[i][j] vs fd of the gradient", dense[i], FD(x[j], grad_exact(x, i), 1e-6), 1e-6);
  }
  CHECK_DONE();
}
