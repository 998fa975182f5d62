// driver::cleanup: a derivative already inlined once gets further copies
// at sites outside loops only while all its copies stay within
// ENZYME_RS_INLINE_COPIES_BUDGET instructions; the other sites call the
// shared derivative. Sites in loops are inlined first and always.
// (This derivative contains a loop: by default (ENZYME_RS_HOT_SITES,
// lit/reverse/inline_hot_sites.c) it is a call at all its sites; the rule
// tested here is that of ENZYME_RS_HOT_SITES=0, and of loop-free ones.)
// RUN: env ENZYME_RS_HOT_SITES=0 ENZYME_RS_INLINE_COPIES_BUDGET=10 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// Default budget (200): this small derivative is copied everywhere.
// RUN: env ENZYME_RS_HOT_SITES=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=ALL
// RUN: env ENZYME_RS_HOT_SITES=0 ENZYME_RS_INLINE_COPIES_BUDGET=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=ALL
#include <enzyme/enzyme.h>

static double cube_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}

void looped(const double *x, double *g, int n, int k) {
  for (int j = 0; j < k; j++) __enzyme_autodiff((void *)cube_sum, enzyme_dup, x, g, enzyme_const, n);
}

void twice(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)cube_sum, enzyme_dup, x, g, enzyme_const, n);
  __enzyme_autodiff((void *)cube_sum, enzyme_dup, x, g, enzyme_const, n);
}

// CHECK-LABEL: define {{.*}}void @looped(
// CHECK-NOT: call {{.*}}@enzyme_rs.
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @twice(
// CHECK: call {{.*}}@enzyme_rs.rev.cube_sum(
// CHECK: call {{.*}}@enzyme_rs.rev.cube_sum(
// CHECK: ret void
// CHECK: define internal {{.*}}@enzyme_rs.rev.cube_sum(

// ALL-LABEL: define {{.*}}void @looped(
// ALL-NOT: call {{.*}}@enzyme_rs.
// ALL: ret void
// ALL-LABEL: define {{.*}}void @twice(
// ALL-NOT: call {{.*}}@enzyme_rs.
// ALL: ret void
// ALL-NOT: define internal {{.*}}@enzyme_rs.rev.cube_sum(
