// __enzyme_todense(load_fn, store_fn, extra...): a pointer whose loads and
// stores are calls. Given as shadows to __enzyme_fwddiff, a one-hot seed
// read by `ident_load` (column j) and tangents written by `sparse_store`
// into a list of triplets give column j of a sparse Jacobian, as in
// Enzyme's sparse examples; also with the store taking the offset first,
// and a todense pointer used directly. The Jacobian is checked against
// the analytic one and central finite differences.
#include "check.h"
#include <string.h>
double *__enzyme_todense(void *, void *, ...);

typedef struct {
  int n;
  long row[64], col[64];
  double val[64];
} Triplets;

static double ident_load(long off, long j) { return off / (long)sizeof(double) == j ? 1.0 : 0.0; }
static void ident_store(double v, long off, long j) { (void)v, (void)off, (void)j; }
static double zero_load(long off, long j, Triplets *t) { return 0.0; }
static void sparse_store(double v, long off, long j, Triplets *t) {
  if (v != 0.0 && t->n < 64) {
    t->row[t->n] = off / (long)sizeof(double);
    t->col[t->n] = j;
    t->val[t->n] = v;
    t->n++;
  }
}
// The same with the offset first.
static void sparse_store_off(long off, double v, long j, Triplets *t) { sparse_store(v, off, j, t); }

enum { N = 5 };
// y_i = x_i^2 + sin(x_{i-1}): a bidiagonal Jacobian.
static void f(const double *x, double *y) {
  y[0] = x[0] * x[0];
  for (int i = 1; i < N; i++) y[i] = x[i] * x[i] + sin(x[i - 1]);
}
static double fy(double *x, int i) {
  double y[N];
  f(x, y);
  return y[i];
}
static double jac(const double *x, int i, int j) {
  return (i == j ? 2 * x[i] : 0) + (j == i - 1 ? cos(x[j]) : 0);
}

// Reading through a todense pointer directly: sum of ident_load(8k, j).
static double sum_direct(long j) {
  double *p = __enzyme_todense((void *)ident_load, (void *)ident_store, j);
  double s = 0;
  for (int k = 0; k < N; k++) s += p[k] * (k + 1);
  return s;
}

static void check_triplets(const Triplets *t, double *x) {
  CHECK("nonzeros", t->n, 2 * N - 1, 0);
  double dense[N][N];
  memset(dense, 0, sizeof dense);
  for (int k = 0; k < t->n; k++) dense[t->row[k]][t->col[k]] += t->val[k];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      CHECK("jacobian", dense[i][j], jac(x, i, j), 1e-14);
      CHECK("jacobian fd", dense[i][j], FD(x[j], fy(x, i), 1e-6), 1e-6);
    }
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.8, 2.0, -0.5}, y[N];
  Triplets t = {0}, t2 = {0};
  for (long j = 0; j < N; j++) {
    double *dx = __enzyme_todense((void *)ident_load, (void *)ident_store, j);
    double *dy = __enzyme_todense((void *)zero_load, (void *)sparse_store, j, &t);
    __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy);
  }
  check_triplets(&t, x);
  for (long j = 0; j < N; j++) {
    double *dx = __enzyme_todense((void *)ident_load, (void *)ident_store, j);
    double *dy = __enzyme_todense((void *)zero_load, (void *)sparse_store_off, j, &t2);
    __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_dupnoneed, y, dy);
  }
  check_triplets(&t2, x);
  CHECK("direct", sum_direct(3), 4, 0);
  CHECK_DONE();
}
