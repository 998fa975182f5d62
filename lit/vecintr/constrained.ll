; llvm.experimental.constrained.*: the derivative of the unconstrained
; operation. In a strictfp function the derivative's arithmetic is
; constrained too, with the rounding and exception arguments of the
; operation it differentiates (here fmul rounds upward and ignores
; exceptions, the rest is dynamic/strict); nothing plain remains but fneg.
; Comparisons and conversions to integers carry no derivative.
; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s
; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck --check-prefix=PLAIN %s

declare double @__enzyme_fwddiff(ptr, ...)
declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @llvm.experimental.constrained.fmul.f64(double, double, metadata, metadata)
declare double @llvm.experimental.constrained.fdiv.f64(double, double, metadata, metadata)
declare double @llvm.experimental.constrained.fadd.f64(double, double, metadata, metadata)
declare double @llvm.experimental.constrained.sqrt.f64(double, metadata, metadata)
declare double @llvm.experimental.constrained.sin.f64(double, metadata, metadata)
declare double @llvm.experimental.constrained.fma.f64(double, double, double, metadata, metadata)
declare float @llvm.experimental.constrained.fptrunc.f32.f64(double, metadata, metadata)
declare double @llvm.experimental.constrained.fpext.f64.f32(float, metadata)
declare i32 @llvm.experimental.constrained.fptosi.i32.f64(double, metadata)
declare double @llvm.experimental.constrained.sitofp.f64.i32(i32, metadata, metadata)
declare i1 @llvm.experimental.constrained.fcmps.f64(double, double, metadata, metadata)

; x * y (upward) / sqrt(x) + sin(fma(x, y, x)) + fpext(fptrunc(x)) * n, n = (int) y
define double @f(double %x, double %y) strictfp {
entry:
  %m = call double @llvm.experimental.constrained.fmul.f64(double %x, double %y, metadata !"round.upward", metadata !"fpexcept.ignore") strictfp
  %s = call double @llvm.experimental.constrained.sqrt.f64(double %x, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %q = call double @llvm.experimental.constrained.fdiv.f64(double %m, double %s, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %a = call double @llvm.experimental.constrained.fma.f64(double %x, double %y, double %x, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %sa = call double @llvm.experimental.constrained.sin.f64(double %a, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %t = call float @llvm.experimental.constrained.fptrunc.f32.f64(double %x, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %e = call double @llvm.experimental.constrained.fpext.f64.f32(float %t, metadata !"fpexcept.strict") strictfp
  %n = call i32 @llvm.experimental.constrained.fptosi.i32.f64(double %y, metadata !"fpexcept.strict") strictfp
  %nf = call double @llvm.experimental.constrained.sitofp.f64.i32(i32 %n, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %en = call double @llvm.experimental.constrained.fmul.f64(double %e, double %nf, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %r1 = call double @llvm.experimental.constrained.fadd.f64(double %q, double %sa, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %r2 = call double @llvm.experimental.constrained.fadd.f64(double %r1, double %en, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %c = call i1 @llvm.experimental.constrained.fcmps.f64(double %x, double %y, metadata !"olt", metadata !"fpexcept.strict") strictfp
  %r = select i1 %c, double %r2, double %q
  ret double %r
}

define double @fwd(double %x, double %y) strictfp {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, double %y, double 0.0) strictfp
  ret double %d
}

define { double, double } @rev(double %x, double %y) strictfp {
  %d = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y) strictfp
  ret { double, double } %d
}

; Forward: the tangent of the upward fmul rounds upward; the rest as the
; function does.
; CHECK-LABEL: define internal { double, double } @enzyme_rs.fwd.f(double %x, double %"x'", double %y, double %"y'")
; CHECK-SAME: #[[ATTR:[0-9]+]]
; CHECK: %m = call double @llvm.experimental.constrained.fmul.f64(double %x, double %y, metadata !"round.upward", metadata !"fpexcept.ignore")
; CHECK-NEXT: call double @llvm.experimental.constrained.fmul.f64(double %y, double %"x'", metadata !"round.upward", metadata !"fpexcept.ignore")
; CHECK-NEXT: call double @llvm.experimental.constrained.fmul.f64(double %x, double %"y'", metadata !"round.upward", metadata !"fpexcept.ignore")
; CHECK-NEXT: call double @llvm.experimental.constrained.fadd.f64(double %{{.+}}, double %{{.+}}, metadata !"round.upward", metadata !"fpexcept.ignore")
; CHECK: %s = call double @llvm.experimental.constrained.sqrt.f64(
; CHECK: call double @llvm.experimental.constrained.fdiv.f64(double 5.000000e-01, double %s, metadata !"round.dynamic", metadata !"fpexcept.strict")
; CHECK: call i1 @llvm.experimental.constrained.fcmp.f64(double %s, double 0.000000e+00, metadata !"oeq", metadata !"fpexcept.strict")
; CHECK: %sa = call double @llvm.experimental.constrained.sin.f64(
; CHECK-NEXT: call double @llvm.experimental.constrained.cos.f64(double %a, metadata !"round.dynamic", metadata !"fpexcept.strict")
; fptrunc/fpext: derivative 1 (the tangent converted alike).
; CHECK: call float @llvm.experimental.constrained.fptrunc.f32.f64(double %"x'", metadata !"round.dynamic", metadata !"fpexcept.strict")
; CHECK: call double @llvm.experimental.constrained.fpext.f64.f32(float %{{.+}}, metadata !"fpexcept.strict")
; CHECK: ret { double, double }

; Reverse: the adjoint of the upward fmul's operands rounds upward.
; CHECK-LABEL: define internal { double, double } @enzyme_rs.rev.f(
; CHECK-SAME: #[[ATTR]]
; CHECK: call double @llvm.experimental.constrained.cos.f64(
; CHECK: call double @llvm.experimental.constrained.fmul.f64(double %{{.+}}, double %{{.+}}, metadata !"round.upward", metadata !"fpexcept.ignore")
; CHECK: ret { double, double }

; CHECK: attributes #[[ATTR]] = {{{.*}}strictfp

; PLAIN-LABEL: define internal { double, double } @enzyme_rs.fwd.f(
; PLAIN-NOT: = {{fadd|fsub|fmul|fdiv|frem|fcmp|fptrunc|fpext|sitofp|fptosi}} {{.*}}
; PLAIN-NOT: call double @llvm.{{sin|cos|sqrt|fma|fmuladd}}.f64(
; PLAIN: ret { double, double }
; PLAIN-LABEL: define internal { double, double } @enzyme_rs.rev.f(
; PLAIN-NOT: = {{fadd|fsub|fmul|fdiv|frem|fcmp|fptrunc|fpext|sitofp|fptosi}} {{.*}}
; PLAIN-NOT: call double @llvm.{{sin|cos|sqrt|fma|fmuladd}}.f64(
; PLAIN: ret { double, double }
