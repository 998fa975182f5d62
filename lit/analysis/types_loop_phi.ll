; A loop: the induction variable is an integer (GEP index, compare), the
; accumulator a float; phis carry types both ways.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @dot(ptr %x, ptr %y, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %ii = zext i32 %i to i64
  %px = getelementptr double, ptr %x, i64 %ii
  %py = getelementptr double, ptr %y, i64 %ii
  %a = load double, ptr %px
  %b = load double, ptr %py
  %m = fmul double %a, %b
  %acc1 = fadd double %acc, %m
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %acc1
}

; CHECK-LABEL: types: dot
; CHECK-NEXT: arg ptr %x : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: arg ptr %y : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: arg i32 %n : {[0]:Integer}
; CHECK-NEXT: %i = phi i32 {{.*}} : {[0]:Integer}
; CHECK-NEXT: %acc = phi double {{.*}} : {[0]:Float@double}
; CHECK-NEXT: %ii = zext i32 %i to i64 : {[0]:Integer}
; CHECK: %i1 = add i32 %i, 1 : {[0]:Integer}
