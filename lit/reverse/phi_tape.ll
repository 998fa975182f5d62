; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A loop: the loop-carried phi's operand that the fmul adjoint needs is
; pushed by the augmented loop body and popped in the reverse body's
; prologue.

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

; The loop is counted: the augmented body pushes only %p (the fmul adjoint
; needs it); the iteration count comes from the loop bound (SCEV's exit
; count, max(n,1)-1), which the reverse recomputes from %n instead of taping
; it; the reverse loop counts down instead of reading the branch taken from
; the tape.
; CHECK-LABEL: define internal double @enzyme_rs.aug.powloop(double %x, i32 %n, ptr %tape)
; CHECK: loop:
; CHECK: %iter = phi i64 [ 0, %entry ], [ %iter.next, %loop ]
; CHECK: %p1 = fmul double %p, %x
; CHECK: call ptr @enzyme_rs.tape.reserve(ptr %tape, i64 8)
; CHECK: store double %p, ptr
; CHECK: br i1 %c, label %loop, label %exit
; CHECK: exit:
; CHECK-NEXT: ret double %p1

; CHECK-LABEL: define internal double @enzyme_rs.rev.powloop(double %x, i32 %n, double %{{[0-9]+}}, ptr %tape)
; CHECK: rev.pop.loop:
; CHECK-NEXT: call ptr @enzyme_rs.tape.pop(ptr %tape, i64 8)
; CHECK: %p.tape = load double, ptr
; CHECK: rev.loop:
; CHECK: fmul double %x,
; CHECK: fmul double %p.tape,
; CHECK: %[[RC:[0-9]+]] = load i64, ptr %rev.iter
; CHECK: icmp eq i64 %[[RC]], 0
; CHECK: rev.exit:
; CHECK-NEXT: %[[MAX:[0-9]+]] = call i32 @llvm.smax.i32(i32 %n, i32 1)
; CHECK-NEXT: %[[BTC:[0-9]+]] = add nsw i32 %[[MAX]], -1
; CHECK-NEXT: %[[BTC64:[0-9]+]] = zext{{( nneg)?}} i32 %[[BTC]] to i64
; CHECK-NEXT: store i64 %[[BTC64]], ptr %rev.iter
; Back along the loop edge: one iteration earlier, and the phi's adjoint
; goes to its incoming %p1.
; CHECK: rev.loop.back:
; CHECK: sub i64 %[[RC]], 1
; CHECK: fadd double
; CHECK: br label %rev.pop.loop
