; A derivative reaches %dead and %tmp but they cannot reach an output
; (the return, or memory outliving the function): they are "unused" and
; get no tangent code. The local array written but never read is unused
; too.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s

declare double @llvm.sin.f64(double)

define double @f(double %x) {
entry:
  %scratch = alloca double, align 8
  %dead = call double @llvm.sin.f64(double %x)
  %tmp = fmul double %dead, 2.0
  store double %tmp, ptr %scratch
  %y = fmul double %x, %x
  ret double %y
}

; CHECK-LABEL: activity: f
; CHECK-NEXT: arg double %x : active
; CHECK-NEXT: %scratch = alloca double, align 8 : unused
; CHECK-NEXT: %dead = call double @llvm.sin.f64(double %x) : unused
; CHECK-NEXT: %tmp = fmul double %dead, 2.000000e+00 : unused
; CHECK-NEXT: store double %tmp, ptr %scratch, align 8 : const
; CHECK-NEXT: %y = fmul double %x, %x : active
