; A call to a function with a body and active arguments is active; a call
; that only takes constants is constant.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -enzyme-function=f -disable-output %s 2>&1 | %FileCheck %s

define internal double @sq(double %v) {
entry:
  %m = fmul double %v, %v
  ret double %m
}

define double @f(double %x) {
entry:
  %a = call double @sq(double %x)
  %b = call double @sq(double 3.0)
  %c = fadd double %a, %b
  ret double %c
}

; CHECK-LABEL: activity: f
; CHECK-NEXT: arg double %x : active
; CHECK-NEXT: %a = call double @sq(double %x) : active
; CHECK-NEXT: %b = call double @sq(double 3.000000e+00) : const
; CHECK-NEXT: %c = fadd double %a, %b : active
