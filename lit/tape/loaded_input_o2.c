// Data reached through a pointer loaded from a context struct (GMM's
// c->X) next to a scratch block the function allocates and rewrites per
// point: the scratch block never escapes, so no store to it can change the
// data, and nothing else writes the data before the reverse sweep. The
// reverse sweep reads the data again and recomputes xc[j] = X[i d + j] -
// m[j] from it: only q's values are taped. When the scratch block escapes
// into the struct, or a call that may write through the struct runs after
// the reads, the loaded values are taped.
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.clobbered
// CHECK: (loop depth 2): 16 bytes [double , double ]
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.escaped
// CHECK: (loop depth 2): 16 bytes [double , double ]
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.scratch{{$}}
// CHECK-NOT: double
// CHECK: (loop depth 2): 8 bytes [double ]
// CHECK-NOT: double
// CHECK: per innermost iteration
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdlib.h>
typedef struct {
  int n, d;
  const double *X;
  double *keep;
} ctx_t;
double scratch(const double *m, const ctx_t *c) {
  int n = c->n, d = c->d;
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *xi = c->X + (size_t)i * d;
    for (int j = 0; j < d; j++) xc[j] = xi[j] - m[j];
    for (int j = 0; j < d; j++) q[j] = sin(m[j] * xc[j]);
    for (int j = 0; j < d; j++) s += q[j] * xc[j];
  }
  free(xc);
  free(q);
  return s;
}
__attribute__((noinline)) void touch(ctx_t *c) {
  if (c->n < 0) c->keep = 0;
}
double escaped(const double *m, ctx_t *c) {
  int n = c->n, d = c->d;
  double *xc = malloc(sizeof(double) * d);
  c->keep = xc;
  touch(c);
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *xi = c->X + (size_t)i * d;
    for (int j = 0; j < d; j++) xc[j] = xi[j] - m[j];
    for (int j = 0; j < d; j++) s += sin(xc[j]) * xi[j];
  }
  free(xc);
  return s;
}
double clobbered(const double *m, ctx_t *c) {
  int n = c->n, d = c->d;
  double *xc = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *xi = c->X + (size_t)i * d;
    for (int j = 0; j < d; j++) xc[j] = xi[j] - m[j];
    for (int j = 0; j < d; j++) s += sin(xc[j]) * xi[j];
    touch(c);
  }
  free(xc);
  return s;
}
void g1(const double *m, double *dm, const ctx_t *c) {
  __enzyme_autodiff((void *)scratch, enzyme_dup, m, dm, enzyme_const, c);
}
void g2(const double *m, double *dm, ctx_t *c, ctx_t *dc) {
  __enzyme_autodiff((void *)escaped, enzyme_dup, m, dm, enzyme_dup, c, dc);
}
void g3(const double *m, double *dm, ctx_t *c) {
  __enzyme_autodiff((void *)clobbered, enzyme_dup, m, dm, enzyme_const, c);
}
