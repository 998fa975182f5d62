; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A function with the "enzyme_inactive" attribute carries no derivative: an
; external one (no body) is accepted, and its result adds no tangent.

declare double @__enzyme_fwddiff(ptr, ...)

declare double @noisy(double) #0

define double @f(double %x) {
entry:
  %n = call double @noisy(double %x)
  %m = fmul double %x, %x
  %r = fadd double %m, %n
  ret double %r
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}

attributes #0 = { "enzyme_inactive" }

; CHECK-LABEL: define double @test(
; CHECK: call {{.*}} @enzyme_rs.fwd.f(
; CHECK-LABEL: define internal {{.*}} @enzyme_rs.fwd.f(
; CHECK: call double @noisy(double %x)
; CHECK-NOT: noisy
; CHECK: ret
