// rerun::mark_cold: when the choice between the taped and the re-run pair
// is made at run time (a dispatch pair: the trip count is an argument),
// the re-run pair, taken only by tapes over the budget, and the functions
// made for it are `cold` and `optsize` (LLVM does not unroll or vectorize
// them). The taped pair and the dispatch keep their attributes
// (must-not); ENZYME_RS_RERUN_COLD=minsize asks for minsize, =0 for
// nothing.
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_RERUN_COLD=minsize %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=MIN
// RUN: env ENZYME_RS_RERUN_COLD=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
// CHECK: define internal double @enzyme_rs.aug.fixed({{.*}}) unnamed_addr #[[HOT:[0-9]+]] {
// CHECK: define internal double @enzyme_rs.aug.enzyme_rs.rerun.fixed({{.*}}) unnamed_addr #[[COLD:[0-9]+]] {
// CHECK: define internal void @enzyme_rs.rev.enzyme_rs.rerun.fixed({{.*}}) #[[COLD2:[0-9]+]] {
// CHECK: define internal {{.*}}@enzyme_rs.aug.enzyme_rs.rerun_step.enzyme_rs.rerun.fixed({{.*}}) {{.*}}#[[COLD]] {
// CHECK-NOT: attributes #[[HOT]] = {{.*}}optsize
// CHECK: attributes #[[COLD]] = { cold {{.*}}optsize
// CHECK: attributes #[[COLD2]] = { cold optsize }
// MIN: define internal double @enzyme_rs.aug.enzyme_rs.rerun.fixed({{.*}}) unnamed_addr #[[COLD:[0-9]+]] {
// MIN: attributes #[[COLD]] = { cold minsize
// OFF: define internal double @enzyme_rs.aug.enzyme_rs.rerun.fixed(
// OFF-NOT: optsize
// OFF-NOT: minsize
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
void grad(const double *x, double *dx, const double *m, int n) {
  __enzyme_autodiff((void *)fixed, enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
}
