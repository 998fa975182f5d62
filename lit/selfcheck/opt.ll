; Self-check mode through opt: -enzyme-check instruments the
; __enzyme_autodiff call (a runtime call before it, the primal and both
; modes' thunks), the thunks' own calls are differentiated, everything
; passes the verifier, and a site with a pointer of unknown size is
; instrumented with the one-time "not checked" note instead.
; RUN: %opt %loadenzyme -enzyme-check -passes=enzyme,verify -S %s | %FileCheck %s
; CHECK-LABEL: define double @caller(
; CHECK: call void @__enzyme_rs_check_run(
; CHECK: call {{.*}}@enzyme_rs.aug.f(
; CHECK-LABEL: define void @unknown(
; CHECK: call void @__enzyme_rs_check_skip(
; CHECK-DAG: define internal void @__enzyme_rs_check_{{[0-9_]+}}_primal(
; CHECK-DAG: define internal void @__enzyme_rs_check_{{[0-9_]+}}_rev(
; CHECK-DAG: define internal void @__enzyme_rs_check_{{[0-9_]+}}_fwd(
; CHECK-NOT: call {{.*}}@__enzyme_autodiff
; CHECK-NOT: call {{.*}}@__enzyme_fwddiff

@enzyme_dup = external global i32
@enzyme_const = external global i32

define internal double @f(ptr %x, double %y, i32 %n) {
entry:
  %a = load double, ptr %x
  %m = fmul double %a, %y
  %g = getelementptr inbounds double, ptr %x, i64 1
  %b = load double, ptr %g
  %s = fadd double %m, %b
  store double %s, ptr %x
  ret double %s
}

declare double @__enzyme_autodiff(ptr, ...)

define double @caller(double %y) {
entry:
  %x = alloca [2 x double]
  %dx = alloca [2 x double]
  store double 1.0, ptr %x
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, double %y, i32 %c, i32 2)
  ret double %r
}

define void @unknown(ptr %x, ptr %dx, double %y) {
entry:
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %x, ptr %dx, double %y, i32 %c, i32 2)
  ret void
}
