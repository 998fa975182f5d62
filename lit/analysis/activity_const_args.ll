; Values derived only from enzyme_const arguments are constant; the
; printer takes the arguments' activity from the __enzyme_* call.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -enzyme-function=f -disable-output %s 2>&1 | %FileCheck %s

@enzyme_const = external global i32
@enzyme_dup = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define internal double @f(double %x, double %scale, ptr %w, ptr %out) {
entry:
  %s2 = fmul double %scale, %scale
  %wv = load double, ptr %w
  %c = fmul double %s2, %wv
  %y = fmul double %c, %x
  store double %y, ptr %out
  ret double %y
}

define double @g(double %x, double %s, ptr %w, ptr %o, ptr %do) {
entry:
  %k = load i32, ptr @enzyme_const
  %d = load i32, ptr @enzyme_dup
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k, double %s, i32 %k, ptr %w, i32 %d, ptr %o, ptr %do)
  ret double %r
}

; CHECK-LABEL: activity: f (arguments as at its __enzyme_* call)
; CHECK-NEXT: arg double %x : active
; CHECK-NEXT: arg double %scale : const
; CHECK-NEXT: arg ptr %w : const
; CHECK-NEXT: arg ptr %out : active
; CHECK-NEXT: %s2 = fmul double %scale, %scale : const
; CHECK-NEXT: %wv = load double, ptr %w, align 8 : const
; CHECK-NEXT: %c = fmul double %s2, %wv : const
; CHECK-NEXT: %y = fmul double %c, %x : active
