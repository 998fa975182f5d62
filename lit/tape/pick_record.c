// A running max's last pick is recorded: one pointer taped per run of the
// loop, nothing per iteration, and no reverse loop for the max
// (modes/reverse/pickrec.rs). With ENZYME_RS_PICK_RECORD=0 the max loop
// tapes its decision per iteration as before; a max that also feeds other
// work in the loop is not recorded (a missed remark says why).
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme -Rpass-missed=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: env ENZYME_RS_PICK_RECORD=0 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.enzyme_rs.picks.maxv
// CHECK-NOT: (loop depth 1)
// CHECK: per innermost iteration: 0 bytes
// REMARK-DAG: remark: reverse mode of 'maxv': the loop at {{.*}}pick_record.c:{{[0-9]+}} keeps a running selection
// REMARK-DAG: remark: reverse mode of 'maxsum': the running selection of the loop at {{.*}}pick_record.c:{{[0-9]+}} is not recorded: its running selection is used by other work in the loop
// OFF-NOT: enzyme_rs.picks
// OFF: enzyme-rs tape: enzyme_rs.aug.maxv
// OFF: (loop depth 1): 1 bytes [i1
#include <enzyme/enzyme.h>
double maxv(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  return m * m;
}
double maxsum(const double *x, int n) {
  double m = x[0], s = 0;
  for (int i = 1; i < n; i++) {
    if (x[i] > m) m = x[i];
    s += m;
  }
  return s;
}
void grad(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)maxv, enzyme_dup, x, g, enzyme_const, n);
  __enzyme_autodiff((void *)maxsum, enzyme_dup, x, g, enzyme_const, n);
}
