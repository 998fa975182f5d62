; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A loop: the loop-carried phi's operand that the fmul adjoint needs is
; pushed by the augmented loop body and popped in the reverse body's
; prologue; the loop header (two predecessors) records which one was taken.

declare double @__enzyme_autodiff(ptr, ...)

define double @powloop(double %x, i32 %n) {
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

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @powloop, double %x, i32 5)
  ret double %d
}

; CHECK-LABEL: define internal double @enzyme_rs.aug.powloop(double %x, i32 %n, ptr %tape)
; CHECK: loop:
; CHECK: %pred.index = phi i64 [ 0, %entry ], [ 1, %loop ]
; CHECK: %p1 = fmul double %p, %x
; CHECK: %[[SLOT:[0-9]+]] = call ptr @enzyme_rs.tape.reserve(ptr %tape, i64 16)
; CHECK-DAG: store double %p, ptr
; CHECK-DAG: store i64 %pred.index, ptr
; CHECK: br i1 %c, label %loop, label %exit

; CHECK-LABEL: define internal double @enzyme_rs.rev.powloop(double %x, i32 %n, double %{{[0-9]+}}, ptr %tape)
; CHECK: rev.pop.loop:
; CHECK-NEXT: %[[B:[0-9]+]] = call ptr @enzyme_rs.tape.pop(ptr %tape, i64 16)
; CHECK: %p.tape = load double, ptr
; CHECK: %pred.index.tape = load i64, ptr
; CHECK: rev.loop:
; CHECK: fmul double %x,
; CHECK: fmul double %p.tape,
; CHECK: switch i64 %pred.index.tape, label %{{rev.exit[0-9]*}} [
; CHECK-NEXT: i64 0, label %[[E0:rev.edge[0-9]*]]
; CHECK-NEXT: i64 1, label %[[E1:rev.edge[0-9]*]]
; Back along the loop edge: the phi's adjoint goes to its incoming %p1.
; CHECK: [[E1]]:
; CHECK: fadd double
; CHECK: br label %rev.pop.loop
