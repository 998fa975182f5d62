// A scratch array written with different data on every outer iteration
// (GMM's xc = x_i - m) and read by later loops of the same iteration: the
// reverse sweep recomputes each element it needs from the store that wrote
// it (x and m are never written), so no xc value is taped. q's values,
// accumulated in place, stay on the tape (one double per element). With a
// second writer, or a store loop that does not run on every iteration, the
// loaded values are taped. A second writer that runs only after the last
// read of the first one's values (`refilled`: the array refilled for a
// later loop) does not count: no double is taped per iteration.
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// REMARK: scratch_forward_o2.c:90:{{[0-9]+}}: remark: reverse mode of 'refilled': a value loaded from memory that is overwritten later is recomputed from the store at {{.*}}scratch_forward_o2.c:89 that wrote it, not taped
// REMARK: scratch_forward_o2.c:{{40|41}}:{{[0-9]+}}: remark: reverse mode of 'scratch': a value loaded from memory that is overwritten later is recomputed from the store at {{.*}}scratch_forward_o2.c:39 that wrote it, not taped
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.refilled
// CHECK-NOT: double
// CHECK: per innermost iteration: 0 bytes
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.skipped_store
// CHECK: (loop depth 2): 8 bytes [double ]
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.two_writers
// CHECK: (loop depth 2): 8 bytes [double ]
// CHECK: (loop depth 2): 8 bytes [double ]
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.scratch_triangle
// CHECK-NOT: double
// CHECK: (loop depth 2): 8 bytes [double ]
// CHECK-NOT: double
// CHECK: per innermost iteration
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.scratch{{$}}
// CHECK-NOT: double
// CHECK: (loop depth 2): 8 bytes [double ]
// CHECK-NOT: double
// CHECK: per innermost iteration
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdlib.h>
double scratch(const double *x, const double *m, int n, int d) {
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - m[j];
    for (int j = 0; j < d; j++) q[j] = sin(m[j] * xc[j]);
    for (int j = 0; j < d; j++) s += q[j] * xc[j];
  }
  free(xc);
  free(q);
  return s;
}
double scratch_triangle(const double *x, const double *m, const double *L, int n, int d) {
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - m[j];
    for (int j = 0; j < d; j++) q[j] = m[j] * xc[j];
    int li = 0;
    for (int col = 0; col < d; col++)
      for (int row = col + 1; row < d; row++) q[row] += L[li++] * xc[col];
    for (int j = 0; j < d; j++) s += q[j] * q[j];
  }
  free(xc);
  free(q);
  return s;
}
double two_writers(const double *x, const double *m, int n, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) t[j] = x[i * d + j] * m[j];
    for (int j = 0; j < d; j++) s += t[j] * t[j];
    for (int j = 0; j < d; j++) t[j] = x[i * d + j] + m[j];
    for (int j = 0; j < d; j++) s += sin(t[j]);
  }
  free(t);
  return s;
}
double skipped_store(const double *x, const double *m, int n, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int j = 0; j < d; j++) t[j] = m[j];
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0)
      for (int j = 0; j < d; j++) t[j] = x[i * d + j] - m[j];
    for (int j = 0; j < d; j++) s += t[j] * t[j] * x[i * d + j];
  }
  free(t);
  return s;
}
double refilled(const double *x, const double *m, int d) {
  double *t = malloc(sizeof(double) * d);
  double s = 0;
  for (int j = 0; j < d; j++) t[j] = x[j] * m[j];
  for (int j = 0; j < d; j++) s += t[j] * t[j];
  for (int j = 0; j < d; j++) t[j] = x[j] + m[j];
  for (int j = 0; j < d; j++) s += t[j] * x[j];
  free(t);
  return s;
}
void g1(const double *x, double *dx, const double *m, double *dm, int n, int d) {
  __enzyme_autodiff((void *)scratch, enzyme_dup, x, dx, enzyme_dup, m, dm, enzyme_const, n,
                    enzyme_const, d);
}
void g2(const double *x, double *dx, const double *m, double *dm, const double *L, double *dL,
        int n, int d) {
  __enzyme_autodiff((void *)scratch_triangle, enzyme_dup, x, dx, enzyme_dup, m, dm, enzyme_dup,
                    L, dL, enzyme_const, n, enzyme_const, d);
}
void g3(const double *x, double *dx, const double *m, double *dm, int n, int d) {
  __enzyme_autodiff((void *)two_writers, enzyme_dup, x, dx, enzyme_dup, m, dm, enzyme_const, n,
                    enzyme_const, d);
}
void g4(const double *x, double *dx, const double *m, double *dm, int n, int d) {
  __enzyme_autodiff((void *)skipped_store, enzyme_dup, x, dx, enzyme_dup, m, dm, enzyme_const, n,
                    enzyme_const, d);
}
void g5(const double *x, double *dx, const double *m, double *dm, int d) {
  __enzyme_autodiff((void *)refilled, enzyme_dup, x, dx, enzyme_dup, m, dm, enzyme_const, d);
}
