// The reverse of a loop nest that writes no memory runs its iterations in
// the primal's order (modes/reverse/rev/loops.rs
// `commuting`, cpp/revorder.cc): matvec's nest in
// tests/programs/loops/forward_order.c (both loops: a nest turns whole or
// not at all); a loop whose values
// the reverse reads from the tape (x overwritten after it: the tape offset
// is a counter like the index, mirrored too). Must not: a loop that stores
// (rows: the reverse reads the shadow the next iteration's reverse adds
// into), a product carried between iterations (the log says why), the
// reverse of a helper another derivative's reverse calls in its loop
// (rowdot in matvec2: rows down, each row up would walk memory slower), a
// loop reading through a const argument's pointer field, which may point
// into a shadow (viaconst).
// On by default; with ENZYME_RS_FORWARD_REVERSE=0 nothing turns, and the
// program tests/programs/loops/forward_order.c (run at -O0..-O3 by the
// program suite, with the default) still passes with every loop counting
// down (against analytic values and central differences).
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include %s -c -o /dev/null 2>&1 | %FileCheck --check-prefix=LOG %s
// RUN: env ENZYME_RS_LOG=debug ENZYME_RS_FORWARD_REVERSE=0 %clang -O2 -fpass-plugin=%plugin -I%include %s -c -o /dev/null 2>&1 | %FileCheck --check-prefix=OFF %s
// LOG-NOT: of enzyme_rs.rev.rows in forward order
// LOG-NOT: of enzyme_rs.rev.rowdot in forward order
// LOG-DAG: 1 reverse loop(s) of enzyme_rs.rev.later in forward order
// LOG-DAG: reverse loop {{.*}}: a value carried between iterations: {{.*}}phi double {{.*}} (enzyme_rs.rev.product): counts down
// LOG-DAG: a load that may read a shadow {{.*}}(enzyme_rs.rev.viaconst): counts down
// LOG-DAG: reverse loops of enzyme_rs.rev.rowdot count down: called in a loop of enzyme_rs.rev.matvec2
// LOG-NOT: of enzyme_rs.rev.rows in forward order
// LOG-NOT: of enzyme_rs.rev.rowdot in forward order
// LOG-NOT: of enzyme_rs.rev.product in forward order
// OFF-NOT: in forward order
// matvec's nest, in the program tests/programs/loops/forward_order.c:
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include -I%S/../../tests/programs %S/../../tests/programs/loops/forward_order.c -c -o /dev/null 2>&1 | %FileCheck --check-prefix=PROG %s
// PROG: 2 reverse loop(s) of enzyme_rs.rev.matvec in forward order
// RUN: env ENZYME_RS_FORWARD_REVERSE=0 %clang -O2 -fpass-plugin=%plugin -I%include -I%S/../../tests/programs %S/../../tests/programs/loops/forward_order.c -lm -o %t.off && %t.off
#include <enzyme/enzyme.h>
__attribute__((noinline)) double rowdot(const double *a, const double *v, int m) {
  double s = 0;
  for (int j = 0; j < m; j++) s += a[j] * v[j];
  return s;
}
double matvec2(const double *A, const double *v, int m) {
  double f = 0;
  for (int i = 0; i < m; i++) {
    double yi = rowdot(A + i * m, v, m);
    f += yi * yi;
  }
  return f;
}
typedef struct { const double *w; } wctx;
double viaconst(const double *x, const wctx *c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * c->w[i];
  return s;
}
void grad_viaconst(const double *x, double *dx, const wctx *c, int n) {
  __enzyme_autodiff((void *)viaconst, enzyme_dup, x, dx, enzyme_const, c, enzyme_const, n);
}
void rows(const double *A, double *y, int m) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) y[j] += A[i * m + j] * A[i * m + j];
}
double product(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}
double later(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  for (int i = 0; i < n; i++) x[i] = 0.5 * s;
  return s;
}
void grad_matvec2(const double *A, double *dA, const double *v, double *dv, int m) {
  __enzyme_autodiff((void *)matvec2, enzyme_dup, A, dA, enzyme_dup, v, dv, enzyme_const, m);
}
void grad_rows(const double *A, double *dA, double *y, double *dy, int m) {
  __enzyme_autodiff((void *)rows, enzyme_dup, A, dA, enzyme_dup, y, dy, enzyme_const, m);
}
void grad_product(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)product, enzyme_dup, x, dx, enzyme_const, n);
}
void grad_later(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)later, enzyme_dup, x, dx, enzyme_const, n);
}
