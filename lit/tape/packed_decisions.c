// A loop whose only taped value is narrow (a running max's i1 decision, an
// argmin's i32 index) packs it across iterations: 1 or 4 bytes per
// iteration instead of an 8-byte slot each (packed.rs). A loop with two
// pushing blocks keeps its 8-byte slots.
// RUN: env ENZYME_RS_PICK_RECORD=0 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2> %t
// RUN: %FileCheck %s < %t
// RUN: %FileCheck %s --check-prefix=MIN < %t
// RUN: env ENZYME_RS_PICK_RECORD=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=IR
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.maxv
// CHECK-NEXT: block {{.*}}(loop depth 1): 1 bytes [i1
// CHECK-NEXT: per innermost iteration: 1 bytes
// MIN-LABEL: enzyme-rs tape: enzyme_rs.aug.argmin
// MIN: (loop depth {{[12]}}): 4 bytes [i32
// MIN: per innermost iteration: {{[0-9]+}} bytes
// IR-LABEL: define {{.*}}void @g(
// IR: store i1 %{{.*}}, ptr %{{.*}}, align 1
// IR: load i1, ptr %{{.*}}, align 1
#include <enzyme/enzyme.h>
double maxv(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m) m = x[i];
  return m;
}
double argmin(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int k = i;
    for (int j = i + 1; j < n; j++)
      if (x[j] < x[k]) k = j;
    s += x[k] * x[i];
  }
  return s;
}
void g(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)maxv, enzyme_dup, x, dx, enzyme_const, n);
}
void g2(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)argmin, enzyme_dup, x, dx, enzyme_const, n);
}
