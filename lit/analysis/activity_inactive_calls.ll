; Calls to inactive functions carry no derivative: known library functions
; (printf), functions listed in __enzyme_inactivefn, and functions (or
; calls) with the "enzyme_inactive" attribute.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s

@__enzyme_inactivefn = global [1 x ptr] [ptr @log_value]
@.s = private constant [4 x i8] c"%f\0A\00"

declare i32 @printf(ptr, ...)
declare double @log_value(double)
declare double @noise(double) #0
declare double @other(double)

define double @f(double %x) {
entry:
  %p = call i32 (ptr, ...) @printf(ptr @.s, double %x)
  %a = call double @log_value(double %x)
  %b = call double @noise(double %x)
  %c = call double @other(double %x) #0
  %s = fadd double %a, %b
  %t = fadd double %s, %c
  %r = fmul double %t, %x
  ret double %r
}

attributes #0 = { "enzyme_inactive" }

; CHECK-LABEL: activity: f
; CHECK-NEXT: arg double %x : active
; CHECK-NEXT: %p = call {{.*}} @printf{{.*}} : const
; CHECK-NEXT: %a = call double @log_value(double %x) : const
; CHECK-NEXT: %b = call double @noise(double %x) : const
; CHECK-NEXT: %c = call double @other(double %x) #0 : const
; CHECK-NEXT: %s = fadd double %a, %b : const
; CHECK-NEXT: %t = fadd double %s, %c : const
; CHECK-NEXT: %r = fmul double %t, %x : active
