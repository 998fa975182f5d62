// driver::drop_dead_functions: functions the pass made that nothing uses in
// the end are deleted by the pass itself, before LLVM's late function
// pipeline would vectorize and unroll them (its GlobalDCE runs after it).
// Here `fixed`'s loop is re-run or taped at run time (a dispatch pair): the
// private copy the re-run pair was built from, its step, the tape helpers
// (inlined everywhere), the unused fixed-point runtime and the generic
// checkpoint driver go (the re-run pair calls the re-run's own driver); the
// pairs and the driver the dispatch calls stay, and so does `fixed` itself, unused
// but not made by the pass (must-not). ENZYME_RS_DROP_DEAD=0 leaves them all.
// RUN: %clang -O2 -c -fpass-plugin=%plugin -I%include %s -o /dev/null -mllvm -print-before=float2int -mllvm -print-module-scope -mllvm -filter-print-funcs=grad 2>&1 | %FileCheck %s --implicit-check-not='@enzyme_rs.rerun.fixed(' --implicit-check-not='define internal ptr @enzyme_rs.tape.' --implicit-check-not='@__enzyme_rs_loops_fp_fwd(' --implicit-check-not='@__enzyme_rs_loops_ckpt_fwd('
// RUN: env ENZYME_RS_DROP_DEAD=0 %clang -O2 -c -fpass-plugin=%plugin -I%include %s -o /dev/null -mllvm -print-before=float2int -mllvm -print-module-scope -mllvm -filter-print-funcs=grad 2>&1 | %FileCheck %s --check-prefix=OFF
// CHECK-LABEL: IR Dump Before Float2IntPass on grad
// CHECK: define dso_local void @grad(
// CHECK: define internal double @fixed(
// CHECK: define internal double @enzyme_rs.aug.fixed(
// CHECK: define internal void @enzyme_rs.rev.fixed(
// CHECK: define internal double @enzyme_rs.aug.enzyme_rs.rerun.fixed(
// CHECK: define internal void @enzyme_rs.rev.enzyme_rs.rerun.fixed(
// CHECK: define internal void @__enzyme_rs_loops_rerun_rev(
// OFF-DAG: define internal double @enzyme_rs.rerun.fixed(
// OFF-DAG: define internal ptr @enzyme_rs.tape.reserve(
// OFF-DAG: define internal {{.*}}@__enzyme_rs_loops_fp_fwd(
// OFF-DAG: define internal {{.*}}@__enzyme_rs_loops_ckpt_fwd(
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
