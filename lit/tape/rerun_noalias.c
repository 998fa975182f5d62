// The step of a re-run loop (modes/reverse/rerun.rs) gets noalias on the
// parameters that alone reach the loop's scratch (mark_state_params): its
// stores to xc, Qxc and mt then leave the loads of L, means and Qd (a
// table made before the loop) available to the reverse sweep, so the
// triangular loop (depth 3 in the step) keeps nothing per iteration. With
// ENZYME_RS_RERUN_NOALIAS=0 every such load is taped, the triangular loop's
// L[li] among them.
// RUN: env ENZYME_RS_AUTO_RERUN=1 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: env ENZYME_RS_AUTO_RERUN=1 ENZYME_RS_RERUN_NOALIAS=0 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// RUN: env ENZYME_RS_AUTO_RERUN=1 %clang -O2 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - 2>&1 | %FileCheck %s --check-prefix=IR
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.{{(enzyme_rs.picks.)?}}enzyme_rs.rerun_step.enzyme_rs.rerun.gmm
// CHECK-NOT: loop depth 3
// CHECK: per innermost iteration
// OFF-LABEL: enzyme-rs tape: enzyme_rs.aug.{{(enzyme_rs.picks.)?}}enzyme_rs.rerun_step.enzyme_rs.rerun.gmm
// OFF: (loop depth 3): 8 bytes [double ]
// OFF: per innermost iteration
// IR: define internal i32 @enzyme_rs.rerun_step.enzyme_rs.rerun.gmm({{.*}}ptr noalias
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdlib.h>
double gmm(const double *x, const double *p, int n, int kk, int d) {
  const int isz = d * (d + 1) / 2;
  const double *alphas = p, *means = p + kk, *icf = p + kk + kk * d;
  double *Qd = malloc(sizeof(double) * kk * d), *xc = malloc(sizeof(double) * d);
  double *Qxc = malloc(sizeof(double) * d), *mt = malloc(sizeof(double) * kk);
  for (int k = 0; k < kk; k++)
    for (int j = 0; j < d; j++) Qd[k * d + j] = exp(icf[k * isz + j]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < kk; k++) {
      const double *L = icf + k * isz;
      for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - means[k * d + j];
      for (int j = 0; j < d; j++) Qxc[j] = Qd[k * d + j] * xc[j];
      int li = d;
      for (int col = 0; col < d; col++)
        for (int row = col + 1; row < d; row++) Qxc[row] += L[li++] * xc[col];
      double sq = 0;
      for (int j = 0; j < d; j++) sq += Qxc[j] * Qxc[j];
      mt[k] = alphas[k] - 0.5 * sq;
    }
    double mx = mt[0];
    for (int k = 1; k < kk; k++)
      if (mt[k] > mx) mx = mt[k];
    double se = 0;
    for (int k = 0; k < kk; k++) se += exp(mt[k] - mx);
    s += mx + log(se);
  }
  free(Qd);
  free(xc);
  free(Qxc);
  free(mt);
  return s;
}
void grad(const double *x, double *dx, const double *p, double *dp, int n, int kk, int d) {
  __enzyme_autodiff((void *)gmm, enzyme_dup, x, dx, enzyme_dup, p, dp, enzyme_const, n,
                    enzyme_const, kk, enzyme_const, d);
}
