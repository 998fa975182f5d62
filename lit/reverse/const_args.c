// driver::cleanup (fold_constant_args): a new function's parameter that
// every call passes the same constant becomes that constant. The reverse
// sweep of f, left a call, gets the seed 1.0 of __enzyme_autodiff folded
// (no multiplication by the seed parameter); the reverse sweep of sq,
// called from f's sweep with a computed adjoint, keeps its seed.
// ENZYME_RS_CONST_ARGS=0 keeps every parameter.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O1 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_CONST_ARGS=0 %clang -O1 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
#include <enzyme/enzyme.h>

__attribute__((noinline)) static double sq(double v) { return v * v * v; }

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sq(x[i]) * x[i];
  return s;
}

void grad(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

// CHECK-LABEL: define {{.*}}void @grad(
// CHECK: call void @enzyme_rs.rev.f(ptr %{{[0-9]+}}, ptr %{{[0-9]+}}, i32 %{{[0-9]+}}, double 1.000000e+00,
// CHECK: define internal void @enzyme_rs.rev.f(ptr %0, ptr %1, i32 %2, double %[[SEED:[0-9]+]], ptr
// CHECK-NOT: %[[SEED]]{{[^0-9]}}
// CHECK: ret void
// CHECK: define internal double @enzyme_rs.rev.sq(double %0, double %[[S:[0-9]+]], ptr
// CHECK: fmul double %{{[0-9]+}}, %[[S]]

// OFF: define internal void @enzyme_rs.rev.f(ptr %0, ptr %1, i32 %2, double %[[SEED:[0-9]+]], ptr
// OFF: fmul {{.*}}%[[SEED]]
// OFF: ret void
