// The reverse of an innermost loop that writes no memory runs its
// iterations in the primal's order (modes/reverse/rev/loops.rs
// `commuting`, cpp/revorder.cc): matvec's inner loop; a loop whose values
// the reverse reads from the tape (x overwritten after it: the tape offset
// is a counter like the index, mirrored too). Must not: a loop that stores
// (rows: the reverse reads the shadow the next iteration's reverse adds
// into), a product carried between iterations (the log says why).
// ENZYME_RS_FORWARD_REVERSE=0 turns none.
// RUN: env ENZYME_RS_LOG=debug %clang -O2 -fpass-plugin=%plugin -I%include %s -c -o /dev/null 2>&1 | %FileCheck --check-prefix=LOG %s
// RUN: env ENZYME_RS_LOG=debug ENZYME_RS_FORWARD_REVERSE=0 %clang -O2 -fpass-plugin=%plugin -I%include %s -c -o /dev/null 2>&1 | %FileCheck --check-prefix=OFF %s
// LOG-NOT: of enzyme_rs.rev.rows in forward order
// LOG-DAG: 1 reverse loop(s) of enzyme_rs.rev.later in forward order
// LOG-DAG: reverse loop {{.*}}: a value carried between iterations: {{.*}}phi double {{.*}} (enzyme_rs.rev.product): counts down
// LOG-DAG: 1 reverse loop(s) of enzyme_rs.rev.matvec in forward order
// LOG-NOT: of enzyme_rs.rev.rows in forward order
// LOG-NOT: of enzyme_rs.rev.product in forward order
// OFF-NOT: in forward order
#include <enzyme/enzyme.h>
double matvec(const double *A, const double *v, int m) {
  double f = 0;
  for (int i = 0; i < m; i++) {
    double yi = 0;
    for (int j = 0; j < m; j++) yi += A[i * m + j] * v[j];
    f += yi * yi;
  }
  return f;
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
void grad_matvec(const double *A, double *dA, const double *v, double *dv, int m) {
  __enzyme_autodiff((void *)matvec, enzyme_dup, A, dA, enzyme_dup, v, dv, enzyme_const, m);
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
