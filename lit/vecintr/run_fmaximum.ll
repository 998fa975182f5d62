; llvm.vector.reduce.fmaximum / fminimum (NaN propagating; intrinsics from
; LLVM 17 on): the derivative goes to the selected lane, and to the first
; NaN lane when the result is NaN.
; REQUIRES: llvm22
; RUN: %opt %loadenzyme -passes=enzyme,verify %s -o %t.bc
; RUN: %clang %t.bc -o %t -lm
; RUN: %t | %FileCheck %s

@enzyme_dup = external global i32, align 4
@fmt = private constant [16 x i8] c"%s %g %g %g %g\0A\00"
declare i32 @printf(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.vector.reduce.fmaximum.v4f64(<4 x double>)
declare double @llvm.vector.reduce.fminimum.v4f64(<4 x double>)

; maximum(x) - 2 minimum(x)
define double @spread(ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %hi = call double @llvm.vector.reduce.fmaximum.v4f64(<4 x double> %v)
  %lo = call double @llvm.vector.reduce.fminimum.v4f64(<4 x double> %v)
  %l2 = fmul double %lo, 2.0
  %r = fsub double %hi, %l2
  ret double %r
}

define void @grad(ptr %name, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %dp = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> zeroinitializer, ptr %dp
  call double (ptr, ...) @__enzyme_autodiff(ptr @spread, ptr @enzyme_dup, ptr %p, ptr %dp)
  %d = load <4 x double>, ptr %dp
  call void @show(ptr %name, <4 x double> %d)
  ret void
}

define void @tangents(ptr %name, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %t = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> <double 1.0, double 0.0, double 0.0, double 0.0>, ptr %t
  %d0 = call double (ptr, ...) @__enzyme_fwddiff(ptr @spread, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 1.0, double 0.0, double 0.0>, ptr %t
  %d1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @spread, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 1.0, double 0.0>, ptr %t
  %d2 = call double (ptr, ...) @__enzyme_fwddiff(ptr @spread, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 0.0, double 1.0>, ptr %t
  %d3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @spread, ptr @enzyme_dup, ptr %p, ptr %t)
  %v0 = insertelement <4 x double> undef, double %d0, i32 0
  %v1 = insertelement <4 x double> %v0, double %d1, i32 1
  %v2 = insertelement <4 x double> %v1, double %d2, i32 2
  %v3 = insertelement <4 x double> %v2, double %d3, i32 3
  call void @show(ptr %name, <4 x double> %v3)
  ret void
}

define void @show(ptr %name, <4 x double> %d) {
  %a = extractelement <4 x double> %d, i32 0
  %b = extractelement <4 x double> %d, i32 1
  %c = extractelement <4 x double> %d, i32 2
  %e = extractelement <4 x double> %d, i32 3
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %name, double %a, double %b, double %c, double %e)
  ret void
}

@n.rev = private constant [4 x i8] c"rev\00"
@n.fwd = private constant [4 x i8] c"fwd\00"
@n.revnan = private constant [8 x i8] c"rev-nan\00"
@n.fwdnan = private constant [8 x i8] c"fwd-nan\00"

define i32 @main() {
  call void @grad(ptr @n.rev, <4 x double> <double 1.0, double -4.0, double 7.5, double 3.0>)
  call void @tangents(ptr @n.fwd, <4 x double> <double 1.0, double -4.0, double 7.5, double 3.0>)
  call void @grad(ptr @n.revnan, <4 x double> <double 1.0, double 0x7FF8000000000000, double 7.5, double 3.0>)
  call void @tangents(ptr @n.fwdnan, <4 x double> <double 1.0, double 0x7FF8000000000000, double 7.5, double 3.0>)
  ret i32 0
}

; CHECK: rev 0 -2 1 0
; CHECK: fwd 0 -2 1 0
; Both results are the NaN: lane 1 gets both derivatives.
; CHECK: rev-nan 0 -1 0 0
; CHECK: fwd-nan 0 -1 0 0
