; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; sin (intrinsic and libm sinf): tangent = cos(x) * dx, in the operand type.

declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.sin.f64(double)
declare float @sinf(float)

define double @f(double %x) {
entry:
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}

define float @g(float %x) {
entry:
  %s = call float @sinf(float %x)
  ret float %s
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  %e = call double (ptr, ...) @__enzyme_fwddiff(ptr @g, float 1.0, float 1.0)
  %r = fadd double %d, %e
  ret double %r
}

; CHECK-LABEL: define internal { float, float } @enzyme_rs.fwd.g(float %x, float %"x'")
; CHECK: %s = call float @sinf(float %x)
; CHECK-NEXT: %[[C:.+]] = call float @llvm.cos.f32(float %x)
; CHECK-NEXT: %[[T:.+]] = fmul float %[[C]], %"x'"
; CHECK: insertvalue { float, float } %{{.+}}, float %[[T]], 1

; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.f(double %x, double %"x'")
; CHECK: %s = call double @llvm.sin.f64(double %x)
; CHECK-NEXT: %[[C:.+]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT: %[[T:.+]] = fmul double %[[C]], %"x'"
; CHECK: insertvalue { double, double } %{{.+}}, double %[[T]], 1
