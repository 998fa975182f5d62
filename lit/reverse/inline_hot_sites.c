// driver::cleanup, ENZYME_RS_HOT_SITES: a derivative that contains a loop
// and is called from more than one site is left a call at every site, in
// loops too (one shared body); a loop-free derivative in loops is still
// inlined at each site, as is a derivative with a loop called from one
// site alone, and a site zero fusion fused (the caller's memset folded
// into the sweep; the fused copy keeps a call to the plain sweep for a
// partial zeroing), and a small forward derivative (its tangent sweep
// loses what the caller knows of the tangent pointers). `=one`: one copy at the deepest site, the others
// call; `=0`: the rule before (every site in a loop inlined).
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_HOT_SITES=one %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=ONE
// RUN: env ENZYME_RS_HOT_SITES=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
#include <enzyme/enzyme.h>
#include <string.h>

static double cube_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}

static double sq_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}

static double quad_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i] * x[i];
  return s;
}

static double prod3(const double *x) { return x[0] * x[1] * x[2]; }

void hot_a(const double *x, double *g, int n, int k) {
  for (int j = 0; j < k; j++) __enzyme_autodiff((void *)cube_sum, enzyme_dup, x, g, enzyme_const, n);
}

void hot_b(const double *x, double *g, int n, int k) {
  for (int j = 0; j < k; j++)
    for (int l = 0; l < k; l++) __enzyme_autodiff((void *)cube_sum, enzyme_dup, x, g, enzyme_const, n);
}

void small_a(const double *x, double *g, int k) {
  for (int j = 0; j < k; j++) __enzyme_autodiff((void *)prod3, enzyme_dup, x, g);
}

void small_b(const double *x, double *g, int k) {
  for (int j = 0; j < k; j++) __enzyme_autodiff((void *)prod3, enzyme_dup, x, g);
}

void single(const double *x, double *g, int n, int k) {
  for (int j = 0; j < k; j++) __enzyme_autodiff((void *)quad_sum, enzyme_dup, x, g, enzyme_const, n);
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

void fwd_a(const double *x, const double *dx, double *out, int n, int k) {
  for (int j = 0; j < k; j++) out[j] = __enzyme_fwddiff((void *)cube_sum, enzyme_dup, x, dx + j * n, enzyme_const, n);
}

void fwd_b(const double *x, const double *dx, double *out, int n, int k) {
  for (int j = 0; j < k; j++) out[j] = __enzyme_fwddiff((void *)cube_sum, enzyme_dup, x, dx + j * n, enzyme_const, n);
}

// CHECK-LABEL: define {{.*}}void @hot_a(
// CHECK: call {{.*}}@enzyme_rs.aug.cube_sum(
// CHECK: call {{.*}}@enzyme_rs.rev.cube_sum(
// CHECK-LABEL: define {{.*}}void @hot_b(
// CHECK: call {{.*}}@enzyme_rs.aug.cube_sum(
// CHECK: call {{.*}}@enzyme_rs.rev.cube_sum(
// Must not: the loop-free derivative, the single site, the fused sites.
// CHECK-LABEL: define {{.*}}void @small_a(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-LABEL: define {{.*}}void @small_b(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-LABEL: define {{.*}}void @single(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-LABEL: define {{.*}}void @fused_a(
// CHECK-NOT: call {{.*}}@enzyme_rs.{{.*}}zfuse
// CHECK-NOT: call {{.*}}@enzyme_rs.aug.
// CHECK-LABEL: define {{.*}}void @fused_b(
// CHECK-NOT: call {{.*}}@enzyme_rs.{{.*}}zfuse
// CHECK-NOT: call {{.*}}@enzyme_rs.aug.
// CHECK-LABEL: define {{.*}}void @fwd_a(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-LABEL: define {{.*}}void @fwd_b(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK-NOT: define internal {{.*}}@enzyme_rs.{{.*}}quad_sum
// CHECK: define internal {{.*}}@enzyme_rs.aug.cube_sum(
// CHECK: define internal {{.*}}@enzyme_rs.rev.cube_sum(

// ONE-LABEL: define {{.*}}void @hot_a(
// ONE: call {{.*}}@enzyme_rs.rev.cube_sum(
// ONE-LABEL: define {{.*}}void @hot_b(
// ONE-NOT: call {{.*}}@enzyme_rs.
// ONE: ret void
// ONE: define internal {{.*}}@enzyme_rs.rev.cube_sum(

// OFF-LABEL: define {{.*}}void @hot_a(
// OFF-NOT: call {{.*}}@enzyme_rs.
// OFF: ret void
// OFF-LABEL: define {{.*}}void @hot_b(
// OFF-NOT: call {{.*}}@enzyme_rs.
// OFF: ret void
// OFF-NOT: define internal {{.*}}@enzyme_rs.{{.*}}cube_sum
