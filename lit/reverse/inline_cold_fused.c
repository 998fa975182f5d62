// driver::cleanup, ENZYME_RS_SHARE_COLD_FUSED: sites zero fusion fused
// (the caller's memset folded into the sweep: the `.zfuse` copy) stay
// inlined in loops, but one outside any loop calls the shared fused copy
// when the derivative has other sites (a harness's warm-up and checking
// calls). Must not: the fused sites in loops, and a fused derivative
// with one site alone (inlined, its body goes). `=0`: every fused site
// inlined.
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_SHARE_COLD_FUSED=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
#include <enzyme/enzyme.h>
#include <string.h>

static double sq_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}

static double quad_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i] * x[i];
  return s;
}

void fused_a(const double *x, double *g, int n, int k) {
  for (int j = 0; j < k; j++) {
    memset(g, 0, sizeof(double) * n);
    __enzyme_autodiff((void *)sq_sum, enzyme_dup, x, g, enzyme_const, n);
  }
}

void fused_b(const double *x, double *g, int n, int k) {
  for (int j = 0; j < k; j++) {
    memset(g, 0, sizeof(double) * n);
    __enzyme_autodiff((void *)sq_sum, enzyme_dup, x, g, enzyme_const, n);
  }
}

void cold(const double *x, double *g, int n) {
  memset(g, 0, sizeof(double) * n);
  __enzyme_autodiff((void *)sq_sum, enzyme_dup, x, g, enzyme_const, n);
}

void single(const double *x, double *g, int n) {
  memset(g, 0, sizeof(double) * n);
  __enzyme_autodiff((void *)quad_sum, enzyme_dup, x, g, enzyme_const, n);
}

// (An inlined fused copy keeps a call to the plain reverse sweep for a
// partial zeroing.)
// CHECK-LABEL: define {{.*}}void @fused_a(
// CHECK-NOT: call {{.*}}@enzyme_rs.{{.*}}zfuse
// CHECK-NOT: call {{.*}}@enzyme_rs.aug.
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @fused_b(
// CHECK-NOT: call {{.*}}@enzyme_rs.{{.*}}zfuse
// CHECK-NOT: call {{.*}}@enzyme_rs.aug.
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @cold(
// CHECK-NOT: call {{.*}}@memset
// CHECK: call {{.*}}@enzyme_rs.aug.sq_sum(
// CHECK: call {{.*}}@enzyme_rs.rev.sq_sum.zfuse(
// CHECK-LABEL: define {{.*}}void @single(
// CHECK-NOT: call {{.*}}@enzyme_rs.{{.*}}zfuse
// CHECK-NOT: call {{.*}}@enzyme_rs.aug.
// CHECK: ret void
// CHECK-NOT: define {{.*}}quad_sum{{.*}}zfuse
// CHECK: define internal {{.*}}@enzyme_rs.rev.sq_sum.zfuse(

// OFF-LABEL: define {{.*}}void @cold(
// OFF-NOT: call {{.*}}@enzyme_rs.{{.*}}zfuse
// OFF-NOT: call {{.*}}@enzyme_rs.aug.
// OFF: ret void
// OFF-NOT: define {{.*}}zfuse
