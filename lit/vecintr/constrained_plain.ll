; Constrained intrinsics in a function that is not strictfp (IR from
; elsewhere than clang): the same derivative, in plain arithmetic.
; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.experimental.constrained.fmul.f64(double, double, metadata, metadata)
declare double @llvm.experimental.constrained.exp.f64(double, metadata, metadata)
declare double @llvm.experimental.constrained.fmuladd.f64(double, double, double, metadata, metadata)

; exp(x * x) + fmuladd(x, x, x)
define double @f(double %x) {
entry:
  %m = call double @llvm.experimental.constrained.fmul.f64(double %x, double %x, metadata !"round.tonearest", metadata !"fpexcept.ignore")
  %e = call double @llvm.experimental.constrained.exp.f64(double %m, metadata !"round.tonearest", metadata !"fpexcept.ignore")
  %a = call double @llvm.experimental.constrained.fmuladd.f64(double %x, double %x, double %x, metadata !"round.tonearest", metadata !"fpexcept.ignore")
  %r = call double @llvm.experimental.constrained.fadd.f64(double %e, double %a, metadata !"round.tonearest", metadata !"fpexcept.ignore")
  ret double %r
}
declare double @llvm.experimental.constrained.fadd.f64(double, double, metadata, metadata)

define double @fwd(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
define double @rev(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.f(double %x, double %"x'")
; CHECK-NOT: strictfp
; CHECK: %m = call double @llvm.experimental.constrained.fmul.f64(
; CHECK-NEXT: %[[A:.+]] = fmul double %x, %"x'"
; CHECK-NEXT: %[[B:.+]] = fmul double %x, %"x'"
; CHECK-NEXT: fadd double %[[A]], %[[B]]
; CHECK: %e = call double @llvm.experimental.constrained.exp.f64(
; CHECK-NEXT: fmul double %e,
; CHECK-NOT: llvm.experimental.constrained.{{.*}}(double %"x'"
; CHECK: ret { double, double }

; The reverse sweep recomputes the exponential (a constrained call: its
; metadata operands stay as they are) and multiplies plainly.
; CHECK-LABEL: define internal double @enzyme_rs.rev.f(
; CHECK: call double @llvm.experimental.constrained.exp.f64(double %{{.+}}, metadata !"round.tonearest", metadata !"fpexcept.ignore")
; CHECK: fmul double
; CHECK: ret double
