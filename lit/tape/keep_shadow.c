// A scratch block the function allocates and frees gets its shadow from a
// slot of the allocation site (keep.rs): taken and zeroed in the augmented
// sweep, given back in the reverse sweep; a constant size under 4096
// bytes keeps plain malloc/free; ENZYME_RS_KEEP_SHADOW=0 turns it off.
// RUN: %clang -O0 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: %clang -O2 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_KEEP_SHADOW=0 %clang -O2 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
// RUN: %clang -O0 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - | grep -c 'call ptr @__enzyme_rs_keep_take(' | %FileCheck %s --check-prefix=ONE
// ONE: {{^}}1{{$}}
// CHECK: @enzyme_rs.keep.slot{{.*}} = internal global { ptr, ptr, i32 } zeroinitializer
// CHECK: [[S:%[^ ]+]] = {{(tail )?}}call ptr @__enzyme_rs_keep_take(ptr {{(nonnull )?}}@enzyme_rs.keep.slot{{[.0-9]*}}, i64 [[N:%[^ )]+]])
// CHECK-NEXT: call void @llvm.memset.p0.i64(ptr {{.*}}[[S]], i8 0, i64 [[N]], i1 false)
// CHECK: call void @__enzyme_rs_keep_give(ptr
// CHECK: define internal {{.*}}ptr @__enzyme_rs_keep_take(
// CHECK: define internal void @__enzyme_rs_keep_give(
// OFF-NOT: __enzyme_rs_keep
#include <enzyme/enzyme.h>
#include <stdlib.h>

double scratch(const double *x, int n) {
  double *t = malloc(sizeof(double) * n);
  for (int k = 0; k < n; k++) t[k] = x[k] * x[k];
  double r = 0;
  for (int k = 0; k < n; k++) r += t[k] * x[k];
  free(t);
  return r;
}

// Three doubles: malloc's bins serve it, not kept.
double small(const double *x) {
  double *t = malloc(sizeof(double) * 3);
  for (int k = 0; k < 3; k++) t[k] = x[k] * x[k];
  double r = t[0] * t[1] * t[2];
  free(t);
  return r;
}

void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)scratch, enzyme_dup, x, dx, enzyme_const, n);
  __enzyme_autodiff((void *)small, enzyme_dup, x, dx);
}
