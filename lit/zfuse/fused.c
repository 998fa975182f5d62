// Zero fusion (modes/reverse/zfuse.rs): the caller's memset of the shadow
// right before the gradient call is deleted; the call goes to a copy of the
// reverse function that stores (no load of the shadow, no fadd into it)
// when the run-time length check holds, and otherwise zeroes the length and
// calls the reverse function. A shadow read before it is written (the
// in-place update) keeps the memset; ENZYME_RS_FUSE_ZERO=0 keeps it too.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O1 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_FUSE_ZERO=0 %clang -O1 -S -emit-llvm -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK-NOT: llvm.memset
// CHECK: call {{.*}}@enzyme_rs.rev.sumsq.zfuse(ptr {{.*}}, i64 %[[LEN:[0-9]+]])
// CHECK-NOT: llvm.memset
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @grad_inplace(
// CHECK: call void @llvm.memset
// CHECK-NOT: zfuse
// CHECK: ret void
// CHECK-LABEL: define internal void @enzyme_rs.rev.sumsq.zfuse(
// CHECK-SAME: ptr %0, ptr %[[DX:[0-9]+]], ptr %{{[0-9]+}}, double %{{[0-9]+}}, ptr %{{[0-9]+}}, i64 %[[L:[0-9]+]])
// CHECK: %[[COVERED:[0-9]+]] = icmp eq i64 %{{[0-9]+}}, %[[L]]
// CHECK-NEXT: br i1 %[[COVERED]], label %[[FAST:[0-9]+]], label %[[SLOW:[0-9]+]]
// CHECK: [[FAST]]:
// CHECK: %[[ADJ:[0-9]+]] = fadd double
// CHECK-NEXT: %[[P:[0-9]+]] = getelementptr inbounds double, ptr %[[DX]]
// CHECK-NEXT: store double %[[ADJ]], ptr %[[P]]
// CHECK: [[SLOW]]:
// CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 %[[DX]], i8 0, i64 %[[L]], i1 false)
// CHECK-NEXT: call void @enzyme_rs.rev.sumsq(
// REMARK: fused.c:{{[0-9]+}}:3: remark: the zeroing of the shadow before the gradient call was fused into the gradient
// REMARK-NOT: fused into the gradient
// OFF-LABEL: define {{.*}}void @grad(
// OFF: call void @llvm.memset
// OFF-NOT: zfuse
// OFF: ret void
#include <enzyme/enzyme.h>
#include <string.h>
typedef struct {
  int n;
} ctx_t;
static double sumsq(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i];
  return s;
}
static double inplace(double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) {
    x[i] *= 2;
    s += x[i] * x[i];
  }
  return s;
}
void grad(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, g, enzyme_const, c);
}
void grad_inplace(const ctx_t *c, double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)inplace, enzyme_dup, x, g, enzyme_const, c);
}
