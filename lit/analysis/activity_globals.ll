; A global only ever holding constants is constant; a global written with
; a computed float somewhere in the module may hold active data, so loads
; from it are active.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -enzyme-function=f -disable-output %s 2>&1 | %FileCheck %s

@scale = global double 2.0
@state = global double 0.0
@count = global i64 0

define void @set(double %v) {
entry:
  store double 3.0, ptr @scale
  store double %v, ptr @state
  ret void
}

define double @f(double %x) {
entry:
  %s = load double, ptr @scale
  %t = load double, ptr @state
  %n = load i64, ptr @count
  %a = fmul double %x, %s
  %b = fmul double %a, %t
  ret double %b
}

; CHECK-LABEL: activity: f
; CHECK-NEXT: arg double %x : active
; CHECK-NEXT: %s = load double, ptr @scale, align 8 : const
; CHECK-NEXT: %t = load double, ptr @state, align 8 : active
; CHECK-NEXT: %n = load i64, ptr @count, align 4 : const
; CHECK-NEXT: %a = fmul double %x, %s : active
; CHECK-NEXT: %b = fmul double %a, %t : active
