; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A join with three predecessors and a fourth from a block no path
; reaches (dead code, as a first-order reverse sweep leaves under
; -fsanitize=pointer-overflow -fno-sanitize-recover at -O3, which the
; second order then differentiates): the augmented sweep's record of the
; predecessor taken gets an entry for the dead edge too (it never runs),
; else the derivative failed the verifier.

declare double @__enzyme_autodiff(ptr, ...)

define double @f(double %x, i32 %k) {
entry:
  %y = fmul double %x, %x
  switch i32 %k, label %c [
    i32 0, label %a
    i32 1, label %b
  ]

a:
  %ya = fmul double %y, %x
  br label %join

b:
  %yb = fadd double %y, %x
  br label %join

c:
  %yc = fsub double %y, %x
  br label %join

dead:
  br label %join

join:
  %r = phi double [ %ya, %a ], [ %yb, %b ], [ %yc, %c ], [ 0.0, %dead ]
  %s = fmul double %r, %x
  ret double %s
}

define double @test(double %x, i32 %k) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k)
  ret double %d
}

; CHECK-LABEL: define internal double @enzyme_rs.aug.f(
; CHECK: join:
; CHECK: %pred.index = phi i8 [ {{[0-2]}}, %{{[abc]}} ], [ {{[0-2]}}, %{{[abc]}} ], [ {{[0-2]}}, %{{[abc]}} ], [ 0, %dead ]
; CHECK-LABEL: define internal double @enzyme_rs.rev.f(
; CHECK: switch i8 %pred.index.tape
