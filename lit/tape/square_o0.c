// At -O0 the clone is put in SSA form before differentiation (mem2reg), so
// the loop counter and the pointer parameter are no stack-slot loads to
// tape. x[i] * x[i] loads x[i] twice: where x is read-only both loads are
// read again in the reverse sweep (nothing taped per iteration); where the
// loop overwrites x[i] after reading it, the two identical loads share one
// cache (one double per iteration), and with -enzyme-dedup-loads=0 each
// keeps its own (two doubles).
// RUN: %clang -O0 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %clang -O0 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=RESET
// RUN: %clang -O0 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape -mllvm -enzyme-dedup-loads=0 %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=NODEDUP
// CHECK: enzyme-rs tape: enzyme_rs.aug.sumsq{{$}}
// CHECK-NEXT: per innermost iteration: 0 bytes
// RESET: enzyme-rs tape: enzyme_rs.aug.sumsq_reset
// RESET-NEXT: (loop depth 1): 8 bytes [double ]
// RESET-NEXT: per innermost iteration: 8 bytes
// NODEDUP: enzyme-rs tape: enzyme_rs.aug.sumsq_reset
// NODEDUP-NEXT: (loop depth 1): 16 bytes [double , double ]
// NODEDUP-NEXT: per innermost iteration: 16 bytes
#include <enzyme/enzyme.h>
double sumsq(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
double sumsq_reset(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    x[i] = 0;
  }
  return s;
}
void g(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n);
}
void g2(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)sumsq_reset, enzyme_dup, x, dx, enzyme_const, n);
}
