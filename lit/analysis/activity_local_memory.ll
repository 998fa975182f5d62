; Local memory that is read again is an output of what is stored in it:
; the store, the alloca and the load are active.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @f(double %x) {
entry:
  %slot = alloca double, align 8
  %y = fmul double %x, 3.0
  store double %y, ptr %slot
  %z = load double, ptr %slot
  ret double %z
}

; CHECK-LABEL: activity: f
; CHECK-NEXT: arg double %x : active
; CHECK-NEXT: %slot = alloca double, align 8 : active
; CHECK-NEXT: %y = fmul double %x, 3.000000e+00 : active
; CHECK-NEXT: store double %y, ptr %slot, align 8 : active
; CHECK-NEXT: %z = load double, ptr %slot, align 8 : active
