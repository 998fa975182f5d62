; The activity printer sees the module's registrations as the enzyme pass
; does: a call to a function listed in __enzyme_inactivefn is inactive.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s

@__enzyme_inactivefn = global [1 x ptr] [ptr @logit]

declare double @logit(double)

define double @f(double %x) {
entry:
  %l = call double @logit(double %x)
  %y = fmul double %x, %x
  ret double %y
}

; CHECK-LABEL: activity: f
; CHECK: %l = call double @logit(double %x) : const
; CHECK: %y = fmul double %x, %x : active
