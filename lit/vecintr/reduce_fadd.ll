; llvm.vector.reduce.fadd: ordered with a start value, and unordered
; (reassoc). Forward mode sums the tangent's lanes (with the start's
; tangent), vector forward mode once per lane, reverse mode gives every
; lane the result's adjoint (a splat) and the start its adjoint.
; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s

@enzyme_dup = external global i32, align 4
@enzyme_width = external global i32, align 4
declare double @__enzyme_fwddiff(ptr, ...)
declare { double, double } @__enzyme_fwddiff2(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)

; s + v0 + v1 + v2 + v3 in order, then the same sum in any order, squared.
define double @sum(double %s, ptr %p) {
entry:
  %v = load <4 x double>, ptr %p, align 8
  %o = call double @llvm.vector.reduce.fadd.v4f64(double %s, <4 x double> %v)
  %u = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %v)
  %r = fmul double %o, %u
  ret double %r
}

define double @fwd(double %s, ptr %p, ptr %dp) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sum, double %s, double 1.0, ptr %p, ptr %dp)
  ret double %d
}

define { double, double } @fwd2(double %s, ptr %p, ptr %dp0, ptr %dp1) {
  %d = call { double, double } (ptr, ...) @__enzyme_fwddiff2(ptr @sum, ptr @enzyme_width, i64 2, double %s, double 1.0, double 0.0, ptr %p, ptr %dp0, ptr %dp1)
  ret { double, double } %d
}

define double @rev(double %s, ptr %p, ptr %dp) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @sum, double %s, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret double %d
}

; Forward: the tangent of the ordered sum is ds + (the tangent's lanes).
; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.sum(double %s, double %"s'", ptr %p, ptr %"p'")
; CHECK: %[[T:.+]] = load <4 x double>, ptr %"p'"
; CHECK: %o = call double @llvm.vector.reduce.fadd.v4f64(double %s, <4 x double> %v)
; CHECK-NEXT: %[[L:.+]] = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %[[T]])
; CHECK-NEXT: %[[DO:.+]] = fadd double %"s'", %[[L]]
; CHECK: %u = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %v)
; CHECK-NEXT: %[[DU:.+]] = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %[[T]])

; Vector forward mode: one lane sum per tangent.
; CHECK-LABEL: define internal { double, [2 x double] } @enzyme_rs.fwd2.sum(
; CHECK: %o = call double @llvm.vector.reduce.fadd.v4f64(double %s, <4 x double> %v)
; CHECK-NEXT: call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %{{.+}})
; CHECK: call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %{{.+}})

; Reverse: each reduction's adjoint goes to every lane (a splat) and the
; ordered one's to the start value too.
; CHECK-LABEL: define internal double @enzyme_rs.rev.sum(
; CHECK: store double %{{.+}}, ptr %d.u
; CHECK-NEXT: %[[DU2:.+]] = load double, ptr %d.u
; CHECK-NEXT: store double -0.000000e+00, ptr %d.u
; CHECK-NEXT: %[[I1:.+]] = insertelement <4 x double> poison, double %[[DU2]], i32 0
; CHECK-NEXT: %[[S1:.+]] = shufflevector <4 x double> %[[I1]], <4 x double> poison, <4 x i32> zeroinitializer
; CHECK: fadd <4 x double> %{{.+}}, %[[S1]]
; CHECK: %[[DO2:.+]] = load double, ptr %d.o
; CHECK-NEXT: store double -0.000000e+00, ptr %d.o
; CHECK: fadd double %{{.+}}, %[[DO2]]
; CHECK: %[[I2:.+]] = insertelement <4 x double> poison, double %[[DO2]], i32 0
; CHECK-NEXT: %[[S2:.+]] = shufflevector <4 x double> %[[I2]], <4 x double> poison, <4 x i32> zeroinitializer
; CHECK: fadd <4 x double> %{{.+}}, %[[S2]]
; CHECK: store <4 x double> %{{.+}}, ptr %"p'"
