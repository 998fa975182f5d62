// Automatic re-run (modes/reverse/rerun.rs): the outer loop of `scratch`
// writes only its own scratch arrays and reads memory nothing writes
// later, and its tape per iteration grows with the inner loops: the
// reverse sweep re-runs each iteration from a snapshot of its state, so
// the function's own tape keeps nothing per iteration (the step's small
// tape is per iteration and freed). `overwritten` writes x after the loop
// reads it: not re-run, and the missed remark says why.
// Its trip counts are arguments, so the cost model (rerun_cost.rs) keeps
// both the taped and the re-run pair and picks one on entry by the tape's
// total against the budget (REMARK); ENZYME_RS_AUTO_RERUN=1 re-runs it
// always (FORCE); ENZYME_RS_AUTO_RERUN=0 keeps the taped reverse sweep.
// RUN: %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=MISSED
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=TAPE
// RUN: env ENZYME_RS_AUTO_RERUN=0 %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// RUN: env ENZYME_RS_AUTO_RERUN=1 %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=FORCE
// REMARK: rerun.c:{{[0-9]+}}:{{[0-9]+}}: remark: reverse mode of 'scratch': the loop at {{.*}}rerun.c:{{[0-9]+}} is re-run per iteration in the reverse sweep
// REMARK-SAME: when its tape, n x ({{[0-9n?x +]+}}) bytes (n: trip counts known on entry), exceeds the budget of 33554432 bytes (ENZYME_RS_RERUN_BUDGET) at run time, else it is taped
// FORCE: remark: reverse mode of 'scratch': the loop at {{.*}}rerun.c:{{[0-9]+}} is re-run per iteration in the reverse sweep (its tape would keep about {{[0-9]+}} bytes per iteration, inner loops counted 16 times, against {{[0-9]+}} bytes of state; a snapshot of its state is kept instead): ENZYME_RS_AUTO_RERUN=1
// MISSED: remark: reverse mode of 'overwritten': the loop at {{.*}}rerun.c:{{[0-9]+}} is not re-run per iteration: memory it reads at {{.*}} may be overwritten after it is read
// TAPE-LABEL: enzyme-rs tape: enzyme_rs.aug.enzyme_rs.rerun_step.enzyme_rs.rerun.scratch
// TAPE-LABEL: enzyme-rs tape: enzyme_rs.aug.enzyme_rs.rerun.scratch
// TAPE-NOT: loop depth 1
// TAPE-NOT: loop depth 2
// TAPE: per innermost iteration: 0 bytes
// OFF-NOT: re-run
// OFF: enzyme-rs tape: enzyme_rs.aug.scratch
// OFF: (loop depth 3)
// OFF-NOT: re-run
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdlib.h>
double scratch(const double *x, const double *m, int n, int d) {
  double *xc = malloc(sizeof(double) * d), *q = malloc(sizeof(double) * d);
  double s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) xc[j] = x[i * d + j] - m[j];
    for (int col = 0; col < d; col++) {
      double r = xc[col];
      for (int row = 0; row < d; row++) r = sin(r * m[row]) + xc[row];
      q[col] = r;
    }
    for (int j = 0; j < d; j++) s += q[j] * xc[j];
  }
  free(xc);
  free(q);
  return s;
}
double overwritten(double *x, const double *m, int n, int d) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int col = 0; col < d; col++) {
      double r = x[col];
      for (int row = 0; row < d; row++) r = sin(r * m[row]) + x[row];
      s += r;
    }
  x[0] = 0;
  return s;
}
void grads(double *x, double *dx, double *m, double *dm, int n, int d) {
  __enzyme_autodiff((void *)scratch, enzyme_dup, x, dx, enzyme_dup, m, dm, enzyme_const, n, enzyme_const, d);
  __enzyme_autodiff((void *)overwritten, enzyme_dup, x, dx, enzyme_dup, m, dm, enzyme_const, n, enzyme_const, d);
}
