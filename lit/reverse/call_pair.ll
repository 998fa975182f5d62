; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A call inside the differentiated function becomes a call of the callee's
; augmented sweep (same tape) and, in the reverse sweep, of its reverse
; sweep, seeded with the adjoint of the call's result.

declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define double @inner(double %a, double %b) {
entry:
  %s = call double @llvm.sin.f64(double %a)
  %m = fmul double %s, %b
  ret double %m
}

define double @outer(double %x) {
entry:
  %c = call double @inner(double %x, double 2.0)
  %r = fmul double %c, %c
  ret double %r
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @outer, double %x)
  ret double %d
}

; CHECK-LABEL: define internal double @enzyme_rs.aug.outer(double %x, ptr %tape)
; CHECK: %[[C:[0-9]+]] = call double @enzyme_rs.aug.inner(double %x, double 2.000000e+00, ptr %tape)
; CHECK: fmul double %[[C]], %[[C]]

; CHECK-LABEL: define internal double @enzyme_rs.rev.outer(double %x, double %{{[0-9]+}}, ptr %tape)
; CHECK: %[[DX:[0-9]+]] = call double @enzyme_rs.rev.inner(double %x, double {{.*}}, double %{{[0-9]+}}, ptr %tape)
; CHECK: ret double

; b is constant at this call: only a's adjoint is returned.
; CHECK-LABEL: define internal double @enzyme_rs.aug.inner(double %a, double %b, ptr %tape)
; CHECK-LABEL: define internal double @enzyme_rs.rev.inner(double %a, double %b, double %{{[0-9]+}}, ptr %tape)
; CHECK: call double @llvm.cos.f64(double %a)
; CHECK: ret double
