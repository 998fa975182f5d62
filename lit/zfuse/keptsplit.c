// Kept values' range checks made once per loop, and loop-invariant adjoint
// sums reassociable (issue 16, logsumexp). The shadow tape's reverse loop
// tests per element whether it lies within the caller's zeroing; zfuse's
// split_kept_checks versions the loop (cpp/zfuse.cc): when the first and
// last index are within, a copy without the test runs, whose body is then
// `dx[i] = dx[i] * k` (store of the product, no reset, no add). The test
// of a loop stepping by 2 is left alone (only steps of +-1 are versioned).
// The fused forward sweep's test whether to store the kept value is
// versioned the same way.
// The adjoint of a value defined outside a loop (the max m, the scalar a)
// sums one term per iteration: its adds carry `reassoc`; adjoints of
// values of the loop (x[i] * x[i]) do not. The caller's memset goes where
// the forward sweep's kept values write every element (zfuse fuse_kept:
// the copy zeroes dx itself unless trip count * 8 == len at run time);
// stepping by 2 they do not, and the memset stays.
// ENZYME_RS_SPLIT_KEPT_CHECKS=0, ENZYME_RS_REASSOC_SUMS=0 and
// ENZYME_RS_FUSE_KEPT=0 turn each off.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: %clang -O2 -c -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: env ENZYME_RS_SPLIT_KEPT_CHECKS=0 %clang -O2 -c -fpass-plugin=%plugin -I%include -Rpass=enzyme %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=NOSPLIT
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_SPLIT_KEPT_CHECKS=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=NOSPLITIR
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_FUSE_KEPT=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=NOFUSE
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_REASSOC_SUMS=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=NOREASSOC
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK-NOT: @llvm.memset
// CHECK: call {{.*}}@enzyme_rs.aug.{{(enzyme_rs.picks.)?}}lse.zfuse(
// CHECK-LABEL: define {{.*}}void @grad_even(
// CHECK: call void @llvm.memset
// CHECK: call {{.*}}@enzyme_rs.aug.even(
// CHECK-LABEL: define internal void @enzyme_rs.rev.squares(
// CHECK-NOT: reassoc
// CHECK-LABEL: define internal double @enzyme_rs.rev.scaled(
// CHECK: fadd reassoc
// CHECK-LABEL: define internal void @enzyme_rs.rev.even(
// CHECK: !enzyme_rs.kept_check
// CHECK-LABEL: define internal void @enzyme_rs.rev.{{(enzyme_rs.picks.)?}}lse(
// CHECK: fsub reassoc double %{{[0-9]+}}, %[[V:[0-9]+]]
// CHECK-NEXT: store double %[[V]]
// CHECK: !enzyme_rs.kept_check
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.aug.{{(enzyme_rs.picks.)?}}lse.zfuse(
// CHECK: icmp eq i64
// CHECK: call void @llvm.memset
// The fused copy's store test is versioned too: a loop storing every
// exp(x[i] - m) without it, then the loop as it was.
// CHECK: call double @exp(
// CHECK-NEXT: getelementptr
// CHECK-NEXT: store double
// CHECK: call double @exp(
// CHECK-NEXT: icmp {{(samesign )?}}ult i64 {{.*}}!enzyme_rs.kept_check
// NOSPLITIR-LABEL: define internal {{.*}}@enzyme_rs.aug.{{(enzyme_rs.picks.)?}}lse.zfuse(
// NOSPLITIR: call double @exp(
// NOSPLITIR-NOT: call double @exp(
// NOSPLITIR: {{^}}}
// NOFUSE-LABEL: define {{.*}}void @grad(
// NOFUSE: call void @llvm.memset
// NOFUSE-NOT: .zfuse
// REMARK: remark: the loop's test whether each element is within the caller's zeroing is made once before the loop
// REMARK-NOT: made once before the loop
// NOSPLIT-NOT: made once before the loop
// NOREASSOC-NOT: reassoc
#include <enzyme/enzyme.h>
#include <math.h>
#include <string.h>
typedef struct {
  int n;
} ctx_t;
double __enzyme_autodiff(void *, ...);
int enzyme_dup, enzyme_const, enzyme_out;

static double lse(const double *x, const ctx_t *c) {
  double m = x[0];
  for (int i = 1; i < c->n; i++)
    if (x[i] > m) m = x[i];
  double s = 0;
  for (int i = 0; i < c->n; i++) s += exp(x[i] - m);
  return m + log(s);
}

// Every second element: the kept value's index steps by 2 (not versioned).
static double even(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i += 2) s += exp(x[i]);
  return log(s);
}

static double scaled(const double *x, double a, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += a * x[i];
  return s;
}

static double squares(const double *x, const ctx_t *c) {
  double s = 0;
  for (int i = 0; i < c->n; i++) s += x[i] * x[i];
  return s;
}

void grad(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, c);
}

void grad_even(const ctx_t *c, const double *x, double *g) {
  memset(g, 0, sizeof(double) * c->n);
  __enzyme_autodiff((void *)even, enzyme_dup, x, g, enzyme_const, c);
}

double grad_scaled(const ctx_t *c, const double *x, double *g, double a) {
  return __enzyme_autodiff((void *)scaled, enzyme_dup, x, g, enzyme_out, a, enzyme_const, c);
}

void grad_squares(const ctx_t *c, const double *x, double *g) {
  __enzyme_autodiff((void *)squares, enzyme_dup, x, g, enzyme_const, c);
}
