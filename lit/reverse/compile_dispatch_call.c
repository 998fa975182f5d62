// The dispatch pair (rerun_cost.rs: taped or re-run, chosen on entry by
// the tape's size) stays a call at every site, also at a site in a loop,
// where the driver inlines other derivatives: inlined, each site would
// get its own copy of the choice and of both pairs' calls. The loop in
// `many` calls the dispatch's augmented and reverse functions, not the
// taped or the re-run pair's.
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// CHECK-LABEL: define {{.*}}void @many(
// CHECK-NOT: define
// CHECK: call {{.*}}@enzyme_rs.aug.pick.fixed(
// CHECK-NOT: define
// CHECK: call {{.*}}@enzyme_rs.rev.pick.fixed(
// CHECK: ret void
// CHECK: define internal {{.*}}@enzyme_rs.aug.pick.fixed({{.*}}) {{.*}}#[[D:[0-9]+]] {
// CHECK: attributes #[[D]] = { {{.*}}"enzyme_rs_rerun_dispatch"="1"
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdlib.h>
#define D 24
static double fixed(const double *x, const double *m, int n) {
  double *xc = malloc(sizeof(double) * D), *q = malloc(sizeof(double) * D);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < D; j++) xc[j] = x[i * D + j] - m[j];
    for (int col = 0; col < D; col++) {
      double r = xc[col];
      for (int row = 0; row < D; row++) r = sin(r * m[row]) + xc[row];
      q[col] = r;
    }
    for (int j = 0; j < D; j++) s += q[j] * xc[j];
  }
  free(xc);
  free(q);
  return s;
}
void many(const double *x, double *dx, const double *m, int n, int reps) {
  for (int r = 0; r < reps; r++)
    __enzyme_autodiff((void *)fixed, enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
}
