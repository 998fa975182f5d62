; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A loop-carried phi gets a tangent phi (zero on entry, the tangent of the update on the back edge).

declare double @__enzyme_fwddiff(ptr, ...)

define double @pw(double %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fmul double %acc, %x
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %acc.next
}

define double @test(double %x, i32 %n) {
entry:
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @pw, double %x, double 1.0, i32 %n)
  ret double %d
}

; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.pw(double %x, double %"x'", i32 %n)
; CHECK: loop:
; CHECK-NEXT: %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
; CHECK-NEXT: %acc = phi double [ 1.000000e+00, %entry ], [ %acc.next, %loop ]
; CHECK-NEXT: %"acc'" = phi double [ 0.000000e+00, %entry ], [ %[[T:.+]], %loop ]
; CHECK-NEXT: %acc.next = fmul double %acc, %x
; CHECK-NEXT: %[[A:.+]] = fmul double %x, %"acc'"
; CHECK-NEXT: %[[B:.+]] = fmul double %acc, %"x'"
; CHECK-NEXT: %[[T]] = fadd double %[[A]], %[[B]]
; CHECK-NOT: phi
; CHECK: exit:
; CHECK: insertvalue { double, double } %{{.+}}, double %[[T]], 1
; CHECK: ret { double, double }
