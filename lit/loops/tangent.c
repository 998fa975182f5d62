// Forward mode over the gradient of a checkpointed loop: the runtime's
// drivers run on tangent thunks (the forward derivatives of the step's
// thunks) over an env pair, and the forward sweep's regions get the state's
// tangent (one region becomes two), after the scheme's check.
// RUN: %clang -O0 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck %s < %t.ll
// RUN: %FileCheck --check-prefix=THUNK %s < %t.ll
#include <enzyme/checkpoint.h>
#include <enzyme/enzyme.h>

__attribute__((noinline)) static void step(int64_t i, double *u, const double *p) {
  u[0] = u[0] * p[0] + u[1];
  u[1] = u[1] * u[0];
}

static double loop(double *u, const double *p, int64_t n) {
  __enzyme_checkpoint_for((void *)step, 0, n, enzyme_checkpoint_region, u,
                          (int64_t)(2 * sizeof(double)), u, p);
  return u[0];
}

__attribute__((noinline)) void grad(double *u, double *gu, const double *p, int64_t n) {
  __enzyme_autodiff((void *)loop, enzyme_dup, u, gu, enzyme_const, p, enzyme_const, n);
}

void hvp(double *u, double *du, double *gu, double *hv, const double *p, int64_t n) {
  __enzyme_fwddiff((void *)grad, enzyme_dup, u, du, enzyme_dup, gu, hv, enzyme_const, p,
                   enzyme_const, n);
}

// CHECK: call void @__enzyme_rs_loops_tangent_check(ptr
// CHECK: call ptr @__enzyme_rs_loops_ckpt_fwd({{.*}}, i64 2, ptr %{{.*}}, ptr @enzyme_rs.loop.tan1.enzyme_rs.loop.fwd.step)
// CHECK: call void @__enzyme_rs_loops_ckpt_rev(ptr %{{.*}}, ptr %{{.*}}, ptr @enzyme_rs.loop.tan1.enzyme_rs.loop.fwd.step, ptr @enzyme_rs.loop.tan1.enzyme_rs.loop.adj.step)
// The thunks: the env and its tangent from the pair, then the forward
// derivative of the thunk.
// THUNK-DAG: define internal {{.*}}i32 @enzyme_rs.loop.tan1.enzyme_rs.loop.fwd.step(ptr %0, i64 %1)
// THUNK-DAG: call i32 @enzyme_rs.fwd.enzyme_rs.loop.fwd.step(ptr %{{.*}}, ptr %{{.*}}, i64 %1)
// THUNK-DAG: define internal {{.*}}void @enzyme_rs.loop.tan1.enzyme_rs.loop.adj.step(ptr %0, i64 %1)
// THUNK-DAG: call void @enzyme_rs.fwd.enzyme_rs.loop.adj.step(ptr %{{.*}}, ptr %{{.*}}, i64 %1)
