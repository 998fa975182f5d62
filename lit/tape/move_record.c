// An insertion sort of a fresh copy only moves values within it: its moves
// are recorded as one i32 origin per element (taped once, by the gather at
// the loop's exit), nothing per iteration of the data-dependent inner loop,
// and its reverse is one scatter (modes/reverse/moverec.rs). With
// ENZYME_RS_MOVE_RECORD=0 (or at -O0) the sort's shifts are reversed as
// before.
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %clang -O0 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// RUN: env ENZYME_RS_MOVE_RECORD=0 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.enzyme_rs.moves.isort
// CHECK-NOT: (loop depth 2)
// CHECK: (loop depth 1): 4 bytes [i32 ]
// CHECK-NOT: (loop depth 2)
// CHECK: per innermost iteration:
// REMARK: remark: reverse mode of 'isort': the loop at {{.*}}move_record.c:{{[0-9]+}} only moves values within one buffer
// OFF-NOT: enzyme_rs.moves
// OFF: enzyme-rs tape: enzyme_rs.aug.isort
// OFF-NOT: enzyme_rs.moves
#include <enzyme/enzyme.h>
#include <stdlib.h>
double isort(const double *x, const double *w, int n) {
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) {
      s[j + 1] = s[j];
      j--;
    }
    s[j + 1] = key;
  }
  double f = 0;
  for (int i = 0; i < n; i++) f += w[i] * s[i];
  free(s);
  return f;
}
void g(const double *x, double *dx, const double *w, int n) {
  __enzyme_autodiff((void *)isort, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, n);
}
