// Memory reached through a pointer loaded from memory (a context struct's
// data pointer) next to scratch blocks the function allocates. The reverse
// sweep may read such memory again instead of taping it only when nothing
// writes it in between: the scratch block never escapes, no call may write
// through the loaded pointer, and the caller leaves it alone. Each case
// below breaks one of these (the loaded pointer is the scratch block, the
// data is overwritten by the function, by a callee, or by the caller after
// a nested call, a stack array reached through the struct dies); the
// gradient must still match central differences.
#include "check.h"
#include <string.h>

#define N 4
#define D 3
typedef struct {
  int n, d;
  double *X;   // data points n*d (constant for the derivative)
  double *buf; // a pointer the functions may stash
} ctx_t;

static double Xdata[N * D], dX[N * D];
static double *Gdata;
static ctx_t C, dC;
static void reset(void) {
  for (int i = 0; i < N * D; i++) Xdata[i] = 0.1 + 0.37 * i - 0.05 * i * i, dX[i] = 0;
  C = (ctx_t){ N, D, Xdata, 0 };
  dC = (ctx_t){ N, D, dX, 0 };
  Gdata = Xdata;
}

// GMM-shaped: xc = x_i - m in a scratch block rewritten per point; the
// data is only read (the reverse recomputes xc[j] from it).
double scratch_reads(const double *m, ctx_t *c) {
  int n = c->n, d = c->d;
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *xi = c->X + i * d;
    for (int j = 0; j < d; j++) xc[j] = xi[j] - m[j];
    for (int j = 0; j < d; j++) q[j] = m[j] * xc[j];
    for (int j = 0; j < d; j++) s += sin(q[j] * xc[j]);
  }
  free(xc);
  free(q);
  return s;
}

// The scratch block escapes into the struct; the pointer loaded back
// after an opaque call is the scratch block itself, rewritten per point.
__attribute__((noinline)) void opaque(ctx_t *c) {
  if (c->n < 0) c->buf = 0;
}
double escaped(const double *m, ctx_t *c) {
  int n = c->n, d = c->d;
  double *t = malloc(sizeof(double) * d);
  c->buf = t;
  opaque(c);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) t[j] = c->X[i * d + j] * m[j];
    const double *p = c->buf;
    for (int j = 0; j < d; j++) s += sin(p[j]) * m[j];
  }
  free(t);
  return s;
}

// The same, the scratch block handed to a function that keeps it.
__attribute__((noinline)) void stash(ctx_t *c, double *t) { c->buf = t; }
double stashed(const double *m, ctx_t *c) {
  int n = c->n, d = c->d;
  double *t = malloc(sizeof(double) * d);
  stash(c, t);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) t[j] = cos(c->X[i * d + j] + m[j]);
    const double *p = c->buf;
    for (int j = 0; j < d; j++) s += p[j] * p[j] * m[j];
  }
  free(t);
  return s;
}

// The data behind the loaded pointer is overwritten by the function after
// it was read (per point, and after the loop).
double overwritten(const double *m, ctx_t *c) {
  int n = c->n, d = c->d;
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = c->X[i * d + j] * m[j];
    for (int j = 0; j < d; j++) s += sin(xc[j]) * c->X[i * d + j];
    for (int j = 0; j < d; j++) c->X[((i + 1) % n) * d + j] += 0.5 * c->X[i * d + j];
  }
  c->X[0] = 7;
  free(xc);
  return s;
}

// A callee writes through the struct's loaded pointer after the reads.
__attribute__((noinline)) void scale_data(ctx_t *c, int i) {
  for (int j = 0; j < c->d; j++) c->X[i * c->d + j] *= 1.5;
}
double callee_writes(const double *m, ctx_t *c) {
  int n = c->n, d = c->d;
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = c->X[j] - m[j];
    for (int j = 0; j < d; j++) s += xc[j] * xc[j] * m[j];
    scale_data(c, 0);
  }
  free(xc);
  return s;
}

// A callee with no pointer argument writes the data through a global
// pointer to it.
__attribute__((noinline)) void bump(void) { Gdata[1] *= 1.5; }
double global_writes(const double *m, ctx_t *c) {
  int d = c->d;
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < d; j++) xc[j] = c->X[j] * m[j];
    for (int j = 0; j < d; j++) s += sin(xc[j]) * c->X[j];
    bump();
  }
  free(xc);
  return s;
}

// A nested (not inlined) function reads the data through the struct; its
// caller overwrites the data before the nested reverse sweep runs: through
// the struct, through its own parameter stored in a struct, and through a
// heap block stored in a struct.
__attribute__((noinline)) static double rd(const ctx_t *c, const double *m) {
  double *xc = malloc(sizeof(double) * c->d);
  double s = 0;
  for (int j = 0; j < c->d; j++) xc[j] = c->X[j] * m[j];
  for (int j = 0; j < c->d; j++) s += sin(xc[j]) * c->X[j];
  free(xc);
  return s;
}
double caller_overwrites(const double *m, ctx_t *c) {
  double r = rd(c, m);
  for (int j = 0; j < c->d; j++) c->X[j] = m[j] * 3 + c->X[j];
  return r + rd(c, m);
}
__attribute__((noinline)) static double mid(const double *m, double *data) {
  ctx_t l = { 1, D, data, 0 };
  double r = rd(&l, m);
  data[1] = m[0] * m[2];
  return r * rd(&l, m);
}
double param_overwritten(const double *m, ctx_t *c) { return mid(m, c->X + 3); }
double heap_overwritten(const double *m, ctx_t *c) {
  double *h = malloc(sizeof(double) * D);
  for (int j = 0; j < D; j++) h[j] = c->X[j] + 1;
  ctx_t l = { 1, D, h, 0 };
  double r = rd(&l, m);
  h[2] = m[1];
  r += rd(&l, m) * m[0];
  free(h);
  return r;
}

// A stack array reached through the struct: it dies with the augmented
// sweep, so the nested reverse sweep must not read it again.
__attribute__((noinline)) static double rd_local(const double *m) {
  double tmp[D];
  for (int j = 0; j < D; j++) tmp[j] = m[j] * m[j] + 0.25;
  ctx_t l = { 1, D, tmp, 0 };
  opaque(&l);
  return rd(&l, m) + tmp[0];
}
__attribute__((noinline)) double clobber_stack(int k) {
  volatile double junk[64];
  for (int i = 0; i < 64; i++) junk[i] = i * k;
  return junk[k];
}
double stack_reached(const double *m, ctx_t *c) {
  double r = rd_local(m);
  return r + 0 * clobber_stack(c->n);
}

typedef double (*fn_t)(const double *, ctx_t *);
static void check_fd(const char *name, fn_t f, const double *dm) {
  double m0[D] = { 0.3, -0.6, 0.8 };
  for (int k = 0; k < D; k++) {
    double h = 1e-6, p[D], q[D];
    memcpy(p, m0, sizeof p);
    memcpy(q, m0, sizeof q);
    p[k] += h;
    q[k] -= h;
    reset();
    double fp = f(p, &C);
    reset();
    double fm = f(q, &C);
    CHECK(name, dm[k], (fp - fm) / (2 * h), 1e-6);
  }
}
#define CHECK_GRAD(f)                                                    \
  do {                                                                   \
    double m[D] = { 0.3, -0.6, 0.8 }, dm[D] = { 0 };                     \
    reset();                                                             \
    __enzyme_autodiff((void *)f, enzyme_dup, m, dm, enzyme_dup, &C, &dC);   \
    check_fd(#f, f, dm);                                                 \
  } while (0)

int main(void) {
  CHECK_GRAD(scratch_reads);
  CHECK_GRAD(escaped);
  CHECK_GRAD(stashed);
  CHECK_GRAD(overwritten);
  CHECK_GRAD(callee_writes);
  CHECK_GRAD(global_writes);
  CHECK_GRAD(caller_overwrites);
  CHECK_GRAD(param_overwritten);
  CHECK_GRAD(heap_overwritten);
  CHECK_GRAD(stack_reached);
  CHECK_DONE();
}
