; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @square(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @square, double %x, double 1.0)
  ret double %d
}

; CHECK-LABEL: define double @test(double %x)
; CHECK: %[[R:.+]] = call { double, double } @enzyme_rs.fwd.square(double %x, double 1.000000e+00)
; CHECK: extractvalue { double, double } %[[R]], 1

; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.square(double %x, double %"x'")
; CHECK: %m = fmul double %x, %x
; CHECK-NEXT: %[[A:.+]] = fmul double %x, %"x'"
; CHECK-NEXT: %[[B:.+]] = fmul double %x, %"x'"
; CHECK-NEXT: %[[S:.+]] = fadd double %[[A]], %[[B]]
; CHECK: ret { double, double }
