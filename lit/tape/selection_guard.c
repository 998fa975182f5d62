// A running max tapes its decision (an i1 per iteration); its reverse adds
// the carried adjoint into dx[i] only where the decision picked x[i]: the
// add sits under a branch on the taped decision (decisions.rs), so the
// other iterations touch no gradient memory. A ReLU's decision is no
// running selection: its add stays a branch-free select.
// RUN: env ENZYME_RS_PICK_RECORD=0 %clang -O1 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// CHECK-LABEL: define {{.*}}void @g(
// CHECK: [[C:%[0-9a-z.]+]] = load i1, ptr
// CHECK-NEXT: select i1 [[C]], double 0.000000e+00, double
// CHECK-NEXT: br i1 [[C]], label %[[THEN:[0-9a-z.]+]], label
// CHECK: [[THEN]]:
// CHECK: load double, ptr
// CHECK-NEXT: fadd double
// CHECK-NEXT: store double
// CHECK-LABEL: define {{.*}}void @g2(
// CHECK: [[R:%[0-9a-z.]+]] = select i1 %{{[0-9a-z.]+}}, double 1.000000e+00, double 0.000000e+00
// CHECK-NOT: br
// CHECK: fadd double %{{[0-9a-z.]+}}, [[R]]
// CHECK-NEXT: store double
#include <enzyme/enzyme.h>
double maxv(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  return m;
}
double relu_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] > 0 ? x[i] : 0;
  return s;
}
void g(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)maxv, enzyme_dup, x, dx, enzyme_const, n);
}
void g2(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)relu_sum, enzyme_dup, x, dx, enzyme_const, n);
}
