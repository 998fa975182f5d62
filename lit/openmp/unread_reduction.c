// A region's reduction result that the gradient does not need (the caller
// never reads it): the augmented region keeps the reduction's critical
// section and turn (the reverse mirrors them) but no longer stores into
// the result, and its partial sum's loop is gone: no float work at all.
// The reverse region still reads x (the adjoint is 2 x[i] ds).
// RUN: %clang -O2 -fopenmp -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s
#include <enzyme/enzyme.h>

double sumsq(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n);
}

// CHECK-LABEL: define internal void @enzyme_rs.aug.enzyme_rs.omp.slots.{{.*}}omp_outlined
// CHECK-NOT: load double
// CHECK-NOT: fmul
// CHECK-NOT: store double
// CHECK: call void @__kmpc_critical
// CHECK-NOT: load double
// CHECK-NOT: store double
// CHECK: call {{.*}}i64 @enzyme_rs.omp.turn_take
// CHECK-NOT: load double
// CHECK-NOT: store double
// CHECK: {{^}}}
// CHECK-LABEL: define internal void @enzyme_rs.rev.enzyme_rs.omp.slots.{{.*}}omp_outlined
// CHECK: load double
// CHECK: fmul
