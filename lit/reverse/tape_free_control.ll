; RUN: %opt %loadenzyme -passes=enzyme -enzyme-print-tape -S %s 2>%t.tape | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=TAPE < %t.tape
; Control flow the reverse sweep can recompute stays off the tape:
; - the iteration count of a loop whose bound SCEV knows (recomputed from
;   the bound),
; - which side of an if/else was taken (recomputed from the branch
;   condition, a select in the branch block),
; while a loop that exits on data keeps its count on the tape.

declare double @__enzyme_autodiff(ptr, ...)

; sum_i x[i]^2 over i < n, then doubled when n is even.
define double @sq(ptr %x, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %done

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %idx = zext i32 %i to i64
  %p = getelementptr inbounds double, ptr %x, i64 %idx
  %v = load double, ptr %p
  %m = fmul double %v, %v
  %s1 = fadd double %s, %m
  %i1 = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done

done:
  %r = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %odd = and i32 %n, 1
  %even = icmp eq i32 %odd, 0
  br i1 %even, label %twice, label %once

twice:
  %r2 = fmul double %r, 2.0
  br label %out

once:
  %r1 = fadd double %r, 1.0
  br label %out

out:
  %res = phi double [ %r2, %twice ], [ %r1, %once ]
  ret double %res
}

; Sums x[i] until the running sum passes 10: the exit depends on data.
define double @sumtil(ptr %x) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %s1 = fadd double %s, %v
  %i1 = add i64 %i, 1
  %c = fcmp olt double %s1, 10.0
  br i1 %c, label %loop, label %exit

exit:
  ret double %s1
}

define void @test(ptr %x, ptr %dx, i32 %n) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @sq, ptr %x, ptr %dx, i32 %n)
  call void (ptr, ...) @__enzyme_autodiff(ptr @sumtil, ptr %x, ptr %dx)
  ret void
}

; @sq keeps nothing: x[i] is re-read, the count and both branches recomputed.
; TAPE-LABEL: enzyme-rs tape: enzyme_rs.aug.sumtil
; TAPE-NEXT: block exit (loop depth 0): 8 bytes [i64 iter]
; TAPE-NEXT: per innermost iteration: 0 bytes
; TAPE-NEXT: enzyme-rs tape: enzyme_rs.aug.sq
; TAPE-NEXT: per innermost iteration: 0 bytes

; CHECK-LABEL: define internal double @enzyme_rs.aug.sumtil(
; CHECK: exit:
; CHECK: call ptr @enzyme_rs.tape.reserve(ptr %tape, i64 8)
; CHECK: store i64 %iter
; CHECK-LABEL: define internal double @enzyme_rs.aug.sq(
; CHECK-NOT: enzyme_rs.tape.reserve
; CHECK: ret double
; CHECK-LABEL: define internal void @enzyme_rs.rev.sq(
; CHECK-NOT: enzyme_rs.tape.pop
; CHECK: icmp eq i32 {{.*}}, 0
; CHECK: select i1
; CHECK: ret void
