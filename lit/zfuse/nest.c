// Zero fusion in a 2-level nest (modes/reverse/zfuse.rs, cpp/zfuse.cc):
// for ||A v||^2 the caller's memset goes; in the fused copy A-bar_ij is
// stored (no load, no fadd) and v-bar_j, added to in every row, adds to
// 0.0 in the first row (a phi true on entry, false on the back edge, and a
// select). A triangular nest (the inner range changes with the row) keeps
// the memset.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O1 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK-NOT: llvm.memset
// CHECK: call {{.*}}@enzyme_rs.rev.matvec.zfuse(ptr {{.*}}, i64 %{{[0-9]+}})
// CHECK-NOT: llvm.memset
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @grad_lower(
// CHECK: call void @llvm.memset
// CHECK-NOT: zfuse
// CHECK: ret void
// CHECK-LABEL: define internal void @enzyme_rs.rev.matvec.zfuse(
// CHECK-SAME: ptr %0, ptr %[[DX:[0-9]+]], ptr %{{[0-9]+}}, double %{{[0-9]+}}, ptr %{{[0-9]+}}, i64 %[[L:[0-9]+]])
// CHECK: %[[COVERED:[0-9]+]] = icmp eq i64 %{{[0-9]+}}, %[[L]]
// CHECK-NEXT: br i1 %[[COVERED]], label %[[FAST:[0-9]+]], label %[[SLOW:[0-9]+]]
// CHECK: [[FAST]]:
// CHECK: %[[FIRST:[0-9]+]] = phi i1 [ false, %{{[0-9]+}} ], [ true, %{{[0-9]+}} ]
// CHECK: %[[PV:[0-9]+]] = getelementptr inbounds double, ptr %[[DX]]
// CHECK-NEXT: %[[OLD:[0-9]+]] = load double, ptr %[[PV]]
// CHECK-NEXT: %[[SEL:[0-9]+]] = select i1 %[[FIRST]], double 0.000000e+00, double %[[OLD]]
// CHECK-NEXT: %[[SUM:[0-9]+]] = fadd double %[[SEL]],
// CHECK-NEXT: store double %[[SUM]], ptr %[[PV]]
// CHECK-NEXT: %[[PA:[0-9]+]] = getelementptr {{(inbounds )?}}double, ptr %{{[0-9]+}}
// CHECK-NEXT: store double %{{[0-9]+}}, ptr %[[PA]]
// CHECK: [[SLOW]]:
// CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 %[[DX]], i8 0, i64 %[[L]], i1 false)
// CHECK-NEXT: call void @enzyme_rs.rev.matvec(
// REMARK: nest.c:{{[0-9]+}}:3: remark: the zeroing of the shadow before the gradient call was fused into the gradient
// REMARK-NOT: fused into the gradient
#include <enzyme/enzyme.h>
#include <stddef.h>
#include <string.h>
typedef struct {
  int n;
} ctx_t;
static double matvec(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j < n; j++) y += x[(size_t)i * n + j] * x[(size_t)n * n + j];
    f += y * y;
  }
  return f;
}
static double lower(const double *x, const ctx_t *c) {
  int n = c->n;
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j <= i; j++) y += x[(size_t)i * n + j] * x[(size_t)n * n + j];
    f += y * y;
  }
  return f;
}
void grad(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * ((size_t)c->n * c->n + c->n));
  __enzyme_autodiff((void *)matvec, enzyme_dup, x, g, enzyme_const, c);
}
void grad_lower(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * ((size_t)c->n * c->n + c->n));
  __enzyme_autodiff((void *)lower, enzyme_dup, x, g, enzyme_const, c);
}
