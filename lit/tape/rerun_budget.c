// The re-run's cost model (modes/reverse/rerun_cost.rs): `fixed`'s outer
// loop could be re-run per iteration (it writes only its own scratch
// arrays), but its trip counts are constants and its whole tape, 100
// iterations of a few KB, fits the default budget (32 MiB): it is taped,
// and the missed remark states the figures. With a budget of 4096 bytes
// (-enzyme-rs-rerun-budget / ENZYME_RS_RERUN_BUDGET) the same loop is
// re-run, the remark giving the total against the budget; with
// ENZYME_RS_AUTO_RERUN=0 it is never re-run.
// RUN: %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=FITS
// RUN: %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=TAPED
// RUN: %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-rs-rerun-budget=4096 -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OVER
// RUN: env ENZYME_RS_RERUN_BUDGET=4096 %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OVER
// RUN: env ENZYME_RS_AUTO_RERUN=0 ENZYME_RS_RERUN_BUDGET=4096 %clang -O2 -g -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// FITS-NOT: is re-run
// FITS: remark: reverse mode of 'fixed': the loop at {{.*}}rerun_budget.c:{{[0-9]+}} is not re-run per iteration: its tape fits the budget: 100 x ({{[0-9x +]+}}) bytes = {{[0-9]+}} bytes <= 33554432 (ENZYME_RS_RERUN_BUDGET)
// FITS-NOT: is re-run
// TAPED-NOT: rerun
// TAPED: enzyme-rs tape: enzyme_rs.aug.fixed
// TAPED: (loop depth 2)
// TAPED-NOT: rerun
// OVER: remark: reverse mode of 'fixed': the loop at {{.*}}rerun_budget.c:{{[0-9]+}} is re-run per iteration in the reverse sweep (its tape would keep 100 x ({{[0-9x +]+}}) bytes = {{[0-9]+}} bytes > the budget of 4096 (ENZYME_RS_RERUN_BUDGET); a snapshot of its state is kept instead)
// OFF-NOT: re-run
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdlib.h>
#define N 100
#define D 24
double fixed(const double *x, const double *m) {
  double *xc = malloc(sizeof(double) * D), *q = malloc(sizeof(double) * D);
  double s = 0;
  for (int i = 0; i < N; i++) {
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
void grad(const double *x, double *dx, const double *m) {
  __enzyme_autodiff((void *)fixed, enzyme_dup, x, dx, enzyme_const, m);
}
