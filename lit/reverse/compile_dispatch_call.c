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
// `fixed` (its loop taped or re-run by the tape's size at run time):
#include "compile_rerun_cold.c"
void many(const double *x, double *dx, const double *m, int n, int reps) {
  for (int r = 0; r < reps; r++)
    __enzyme_autodiff((void *)fixed, enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
}
