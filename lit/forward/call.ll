; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A call to a defined function with an active argument calls its derivative;
; the call with only constant arguments stays a primal call.

@enzyme_const = external global i32

declare double @__enzyme_fwddiff(ptr, ...)

define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @outer(double %x, double %c) {
entry:
  %a = call double @sq(double %x)
  %b = call double @sq(double %c)
  %r = fadd double %a, %b
  ret double %r
}

define double @test(double %x, double %c) {
entry:
  %k = load i32, ptr @enzyme_const
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @outer, double %x, double 1.0, i32 %k, double %c)
  ret double %d
}

; CHECK-LABEL: define double @test(
; CHECK: %[[R:.+]] = call { double, double } @enzyme_rs.fwd.outer(double %x, double 1.000000e+00, double %c)
; CHECK-NEXT: extractvalue { double, double } %[[R]], 1

; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.outer(double %x, double %"x'", double %c)
; CHECK: %[[S:.+]] = call { double, double } @enzyme_rs.fwd.sq(double %x, double %"x'")
; CHECK-NEXT: %[[P:.+]] = extractvalue { double, double } %[[S]], 0
; CHECK-NEXT: %[[D:.+]] = extractvalue { double, double } %[[S]], 1
; CHECK-NEXT: %b = call double @sq(double %c)
; CHECK-NEXT: %r = fadd double %[[P]], %b
; CHECK: insertvalue { double, double } %{{.+}}, double %[[D]], 1

; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.sq(double %x, double %"x'")
; CHECK: %m = fmul double %x, %x
