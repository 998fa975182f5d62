// At -O2, GVN turns the loads of x[i-1], x[i] into loop-carried phis of the
// previous iterations' loads. x is never written, so the reverse sweep loads
// them again (a phi of x[i+1] is x[i] one iteration on) and recomputes what
// is derived from them: the stencil's tape is 0 or 8 bytes per iteration.
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.chain
// CHECK-NEXT: per innermost iteration: {{0|8}} bytes
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.stencil
// CHECK-NOT: (loop depth {{[1-9]}})
// CHECK: per innermost iteration: {{0|8}} bytes
#include <enzyme/enzyme.h>
double stencil(const double *x, int n) {
  double s = 0;
  for (int i = 1; i < n - 1; i++) {
    double r = x[i - 1] - 2 * x[i] + x[i + 1];
    s += 0.5 * r * r;
  }
  for (int i = 0; i < n - 1; i++) s += x[i] * x[i + 1];
  return s;
}
double chain(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n - 1; i++) s += x[i] * x[i + 1];
  return s;
}
void g(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, x, dx, enzyme_const, n);
}
void g2(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)chain, enzyme_dup, x, dx, enzyme_const, n);
}
