; llvm.vector.reduce.fmul: a lane's partial is the start times the product
; of the other lanes, built from the products before and after it (no
; division, so a zero lane is right); the start's partial is the product
; of the lanes. llvm.vector.reduce.fmax/fmin/fmaximum/fminimum: the first
; lane equal to the result (a NaN result: the first NaN lane) gets the
; derivative, picked by a one-lane mask (cttz of the comparison's bits).
; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s

@enzyme_dup = external global i32, align 4
declare double @__enzyme_fwddiff(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)
declare float @llvm.vector.reduce.fminimum.v8f32(<8 x float>)

define double @prod(double %s, ptr %p) {
entry:
  %v = load <4 x double>, ptr %p, align 8
  %o = call double @llvm.vector.reduce.fmul.v4f64(double %s, <4 x double> %v)
  ret double %o
}

define double @top(ptr %p) {
entry:
  %v = load <4 x double>, ptr %p, align 8
  %o = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
  ret double %o
}

define float @low(ptr %p) {
entry:
  %v = load <8 x float>, ptr %p, align 4
  %o = call float @llvm.vector.reduce.fminimum.v8f32(<8 x float> %v)
  ret float %o
}

define double @fwd_prod(double %s, ptr %p, ptr %dp) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @prod, double %s, double 1.0, ptr %p, ptr %dp)
  ret double %d
}
define double @rev_prod(double %s, ptr %p, ptr %dp) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @prod, double %s, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret double %d
}
define double @fwd_top(ptr %p, ptr %dp) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @top, ptr %p, ptr %dp)
  ret double %d
}
define void @rev_top(ptr %p, ptr %dp) {
  call double (ptr, ...) @__enzyme_autodiff(ptr @top, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret void
}
define void @rev_low(ptr %p, ptr %dp) {
  call double (ptr, ...) @__enzyme_autodiff(ptr @low, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret void
}

; The first lane equal to the maximum.
; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.top(
; CHECK: %o = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
; CHECK: %[[EQ:.+]] = fcmp oeq <4 x double> %v, %{{.+}}
; CHECK: %[[NAN:.+]] = fcmp uno double %o, %o
; CHECK: %[[HIT:.+]] = or <4 x i1> %[[EQ]], %{{.+}}
; CHECK: %[[BITS:.+]] = bitcast <4 x i1> %[[HIT]] to i4
; CHECK: %[[K:.+]] = call i4 @llvm.cttz.i4(i4 %[[BITS]], i1 false)
; CHECK: %[[ONE:.+]] = icmp eq <4 x i32> %{{.+}}, <i32 0, i32 1, i32 2, i32 3>
; CHECK: %[[SEL:.+]] = select <4 x i1> %[[ONE]], <4 x double> %{{.+}}, <4 x double> {{<double -0.000000e\+00, .+>|splat \(double -0.000000e\+00\)}}
; CHECK: call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %[[SEL]])


; Forward: ds * prod(v) + sum_k (s * before_k * after_k) * dv_k.
; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.prod(
; CHECK: %o = call double @llvm.vector.reduce.fmul.v4f64(double %s, <4 x double> %v)
; CHECK-NEXT: %[[P:.+]] = call double @llvm.vector.reduce.fmul.v4f64(double 1.000000e+00, <4 x double> %v)
; CHECK: %[[B0:.+]] = insertelement <4 x double> poison, double %s, i32 0
; CHECK: %[[A2:.+]] = insertelement <4 x double> <double poison, double poison, double poison, double 1.000000e+00>, double %{{.+}}, i32 2
; CHECK: %[[W:.+]] = fmul <4 x double> %{{.+}}, %{{.+}}
; CHECK: fmul double %[[P]], %"s'"
; CHECK: %[[T:.+]] = fmul <4 x double> %[[W]], %{{.+}}
; CHECK-NEXT: call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.000000e+00, <4 x double> %[[T]])
; CHECK-NOT: fdiv

; CHECK-LABEL: define internal void @enzyme_rs.rev.low(
; CHECK: fcmp oeq <8 x float>
; CHECK: call i8 @llvm.cttz.i8(
; CHECK: select <8 x i1> %{{.+}}, <8 x float> %{{.+}}, <8 x float>
; CHECK: store <8 x float> %{{.+}}, ptr %"p'"

; CHECK-LABEL: define internal void @enzyme_rs.rev.top(
; CHECK: call i4 @llvm.cttz.i4(
; CHECK: %[[M:.+]] = icmp eq <4 x i32> %{{.+}}, <i32 0, i32 1, i32 2, i32 3>
; CHECK: select <4 x i1> %[[M]], <4 x double> %{{.+}}, <4 x double> {{<double -0.000000e\+00, .+>|splat \(double -0.000000e\+00\)}}
; CHECK: store <4 x double> %{{.+}}, ptr %"p'"


; Reverse: the lanes' adjoint is the partials times a splat of the result's.
; CHECK-LABEL: define internal double @enzyme_rs.rev.prod(
; CHECK-NOT: fdiv
; CHECK: %[[W2:.+]] = fmul <4 x double> %{{.+}}, %{{.+}}
; CHECK: %[[S:.+]] = shufflevector <4 x double> %{{.+}}, <4 x double> poison, <4 x i32> zeroinitializer
; CHECK-NEXT: fmul <4 x double> %[[W2]], %[[S]]
; CHECK: ret double

