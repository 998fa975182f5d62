; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A local slot written with an active value gets a zeroed shadow alloca;
; select picks between the operands' tangents with the primal condition.

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, double %y) {
entry:
  %slot = alloca double
  %c = fcmp ogt double %x, %y
  %m = select i1 %c, double %x, double %y
  store double %m, ptr %slot
  %v = load double, ptr %slot
  ret double %v
}

define double @test(double %x, double %y) {
entry:
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, double %y, double 0.0)
  ret double %d
}

; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.f(double %x, double %"x'", double %y, double %"y'")
; CHECK: %slot = alloca double
; CHECK-NEXT: %"slot'" = alloca double
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr {{.*}}%"slot'", i8 0, i64 8, i1 false)
; CHECK: %m = select i1 %c, double %x, double %y
; CHECK-NEXT: %[[DM:.+]] = select i1 %c, double %"x'", double %"y'"
; CHECK-NEXT: store double %m, ptr %slot
; CHECK-NEXT: store double %[[DM]], ptr %"slot'"
; CHECK-NEXT: %v = load double, ptr %slot
; CHECK-NEXT: %[[DV:.+]] = load double, ptr %"slot'"
; CHECK: insertvalue { double, double } %{{.+}}, double %[[DV]], 1
