// The zeroed gradient buffer as the tape (modes/reverse/rev/shadowtape.rs):
// the caller zeroes dx right before the gradient call, so the forward
// sweep stores exp(x[i] - m) into dx[i] (when the element lies within the
// zeroing, read from @enzyme_rs.zeroed_len) and the reverse loads it back
// and resets the element to -0.0 instead of calling exp again; the exp
// stays on the other path only (elements outside the zeroing; the
// caller keeps its memset with ENZYME_RS_FUSE_KEPT=0, see keptsplit.c). A call
// without the memset, and ENZYME_RS_SHADOW_TAPE=0, keep the plain pair.
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_FUSE_KEPT=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: %clang -O2 -c -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_SHADOW_TAPE=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK: call void @llvm.memset
// CHECK: store i64 %[[LEN:[0-9]+]], ptr @enzyme_rs.zeroed_len
// CHECK: call {{.*}}@enzyme_rs.aug.{{(enzyme_rs.picks.)?}}lse.[[A:[0-9]+]](
// CHECK: store i64 %[[LEN]], ptr @enzyme_rs.zeroed_len
// CHECK: call {{.*}}@enzyme_rs.rev.{{(enzyme_rs.picks.)?}}lse.[[R:[0-9]+]](
// CHECK-LABEL: define {{.*}}void @grad_acc(
// CHECK-NOT: zeroed_len
// CHECK: call {{.*}}@enzyme_rs.aug.{{(enzyme_rs.picks.)?}}lse(
// CHECK-NOT: zeroed_len
// CHECK: call {{.*}}@enzyme_rs.rev.{{(enzyme_rs.picks.)?}}lse(
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.aug.{{(enzyme_rs.picks.)?}}lse(
// CHECK-NOT: zeroed_len
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.rev.{{(enzyme_rs.picks.)?}}lse(
// CHECK-NOT: zeroed_len
// CHECK: define internal {{.*}}@enzyme_rs.aug.{{(enzyme_rs.picks.)?}}lse.[[A]](ptr {{[a-z ]*}}%0, ptr {{[a-z ]*}}%[[DX:[0-9]+]],
// CHECK: load i64, ptr @enzyme_rs.zeroed_len
// CHECK: %[[E:[0-9]+]] = tail call double @exp(
// CHECK: %[[P:[0-9]+]] = getelementptr inbounds {{(nuw )?}}double, ptr %[[DX]]
// CHECK-NEXT: store double %[[E]], ptr %[[P]]
// CHECK: define internal {{.*}}@enzyme_rs.rev.{{(enzyme_rs.picks.)?}}lse.[[R]](
// CHECK: load i64, ptr @enzyme_rs.zeroed_len
// CHECK: call double @llvm.exp.f64(
// CHECK: store double -0.000000e+00
// REMARK: shadowtape.c:[[@LINE+17]]:39: remark: this value is kept in the gradient buffer
// REMARK-NOT: kept in the gradient buffer
// OFF-NOT: zeroed_len
#include <enzyme/enzyme.h>
#include <math.h>
#include <string.h>
typedef struct {
  int n;
} ctx_t;
double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const;

static double lse(const double *x, const ctx_t *c) {
  double m = x[0];
  for (int i = 1; i < c->n; i++)
    if (x[i] > m) m = x[i];
  double s = 0;
  for (int i = 0; i < c->n; i++) s += exp(x[i] - m);
  return m + log(s);
}

void grad(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, c);
}

void grad_acc(const ctx_t *c, const double *x, double *g) {
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, c);
}
