// clang -O0: the clone's stack slots are promoted to registers before it is
// differentiated, and the two loads of x[i] share one cache, so the tape of
//   for (i) s += x[i]*x[i];  x[0] = 0;
// (x overwritten after the loop) is one double per iteration; with
// -enzyme-dedup-loads=0, two.
// RUN: %clang -O0 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=DEDUP
// RUN: %clang -O0 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape -mllvm -enzyme-dedup-loads=0 %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=NODEDUP
// DEDUP: enzyme-rs tape: enzyme_rs.aug.sumsq_then_reset
// DEDUP-NEXT: block {{.*}}(loop depth 1): 8 bytes [double {{[^,]*}}]
// DEDUP-NEXT: per innermost iteration: 8 bytes
// NODEDUP: enzyme-rs tape: enzyme_rs.aug.sumsq_then_reset
// NODEDUP-NEXT: block {{.*}}(loop depth 1): 16 bytes [double {{[^,]*}}, double {{[^,]*}}]
// NODEDUP-NEXT: per innermost iteration: 16 bytes
#include <enzyme/enzyme.h>
double sumsq_then_reset(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  x[0] = 0;
  return s;
}
void grad(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)sumsq_then_reset, enzyme_dup, x, dx, enzyme_const, n);
}
