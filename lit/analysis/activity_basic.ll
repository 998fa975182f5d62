; Float arithmetic on an active argument is active; integer loop control
; is constant.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @pow_n(double %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %p = phi double [ 1.0, %entry ], [ %p1, %loop ]
  %p1 = fmul double %p, %x
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %p1
}

; CHECK-LABEL: activity: pow_n
; CHECK-NEXT: arg double %x : active
; CHECK-NEXT: arg i32 %n : const
; CHECK-NEXT: br label %loop : const
; CHECK-NEXT: %i = phi i32 {{.*}} : const
; CHECK-NEXT: %p = phi double {{.*}} : active
; CHECK-NEXT: %p1 = fmul double %p, %x : active
; CHECK-NEXT: %i1 = add i32 %i, 1 : const
; CHECK-NEXT: %c = icmp slt i32 %i1, %n : const
; CHECK: ret double %p1 : active
