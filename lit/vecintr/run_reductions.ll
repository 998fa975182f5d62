; The reductions' derivatives computed and printed: reduce.fmul with a
; zero lane and with two (the derivative of a product is the product of
; the others, not out / x), reduce.fadd ordered, reduce.fmax with a NaN
; lane (skipped), in forward and reverse mode (reduce.fmaximum, an
; intrinsic from LLVM 17 on: run_fmaximum.ll).
; RUN: %opt %loadenzyme -passes=enzyme,verify %s -o %t.bc
; RUN: %clang %t.bc -o %t -lm
; RUN: %t | %FileCheck %s

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4
@fmt4 = private constant [21 x i8] c"%s %g %g %g %g | %g\0A\00"
declare i32 @printf(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)

; s * x0 * x1 * x2 * x3
define double @prod(double %s, ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %o = call double @llvm.vector.reduce.fmul.v4f64(double %s, <4 x double> %v)
  ret double %o
}
; (s + x0 + x1 + x2 + x3)^2
define double @sumsq(double %s, ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %o = call double @llvm.vector.reduce.fadd.v4f64(double %s, <4 x double> %v)
  %r = fmul double %o, %o
  ret double %r
}
; 3 * max(x) (maxnum semantics: a NaN lane is skipped)
define double @top(double %s, ptr %p) {
  %v = load <4 x double>, ptr %p, align 8
  %o = call double @llvm.vector.reduce.fmax.v4f64(<4 x double> %v)
  %r = fmul double %o, 3.0
  ret double %r
}
; Reverse: the gradient of lanes and start, printed as "<name> dx0..dx3 | ds";
; forward: the derivative along each lane, and along the start.
define void @grad.prod(ptr %name, double %s, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %dp = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> zeroinitializer, ptr %dp
  %ds = call double (ptr, ...) @__enzyme_autodiff(ptr @prod, double %s, ptr @enzyme_dup, ptr %p, ptr %dp)
  %d = load <4 x double>, ptr %dp
  call void @show(ptr %name, <4 x double> %d, double %ds)
  ret void
}

define void @tangents.prod(ptr %name, double %s, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %t = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> <double 1.0, double 0.0, double 0.0, double 0.0>, ptr %t
  %d0 = call double (ptr, ...) @__enzyme_fwddiff(ptr @prod, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 1.0, double 0.0, double 0.0>, ptr %t
  %d1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @prod, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 1.0, double 0.0>, ptr %t
  %d2 = call double (ptr, ...) @__enzyme_fwddiff(ptr @prod, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 0.0, double 1.0>, ptr %t
  %d3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @prod, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> zeroinitializer, ptr %t
  %ds = call double (ptr, ...) @__enzyme_fwddiff(ptr @prod, double %s, double 1.0, ptr @enzyme_dup, ptr %p, ptr %t)
  %v0 = insertelement <4 x double> undef, double %d0, i32 0
  %v1 = insertelement <4 x double> %v0, double %d1, i32 1
  %v2 = insertelement <4 x double> %v1, double %d2, i32 2
  %v3 = insertelement <4 x double> %v2, double %d3, i32 3
  call void @show(ptr %name, <4 x double> %v3, double %ds)
  ret void
}

define void @grad.sumsq(ptr %name, double %s, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %dp = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> zeroinitializer, ptr %dp
  %ds = call double (ptr, ...) @__enzyme_autodiff(ptr @sumsq, double %s, ptr @enzyme_dup, ptr %p, ptr %dp)
  %d = load <4 x double>, ptr %dp
  call void @show(ptr %name, <4 x double> %d, double %ds)
  ret void
}

define void @tangents.sumsq(ptr %name, double %s, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %t = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> <double 1.0, double 0.0, double 0.0, double 0.0>, ptr %t
  %d0 = call double (ptr, ...) @__enzyme_fwddiff(ptr @sumsq, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 1.0, double 0.0, double 0.0>, ptr %t
  %d1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @sumsq, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 1.0, double 0.0>, ptr %t
  %d2 = call double (ptr, ...) @__enzyme_fwddiff(ptr @sumsq, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 0.0, double 1.0>, ptr %t
  %d3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @sumsq, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> zeroinitializer, ptr %t
  %ds = call double (ptr, ...) @__enzyme_fwddiff(ptr @sumsq, double %s, double 1.0, ptr @enzyme_dup, ptr %p, ptr %t)
  %v0 = insertelement <4 x double> undef, double %d0, i32 0
  %v1 = insertelement <4 x double> %v0, double %d1, i32 1
  %v2 = insertelement <4 x double> %v1, double %d2, i32 2
  %v3 = insertelement <4 x double> %v2, double %d3, i32 3
  call void @show(ptr %name, <4 x double> %v3, double %ds)
  ret void
}

define void @grad.top(ptr %name, double %s, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %dp = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> zeroinitializer, ptr %dp
  %ds = call double (ptr, ...) @__enzyme_autodiff(ptr @top, double %s, ptr @enzyme_dup, ptr %p, ptr %dp)
  %d = load <4 x double>, ptr %dp
  call void @show(ptr %name, <4 x double> %d, double %ds)
  ret void
}

define void @tangents.top(ptr %name, double %s, <4 x double> %x) {
  %p = alloca <4 x double>, align 32
  %t = alloca <4 x double>, align 32
  store <4 x double> %x, ptr %p
  store <4 x double> <double 1.0, double 0.0, double 0.0, double 0.0>, ptr %t
  %d0 = call double (ptr, ...) @__enzyme_fwddiff(ptr @top, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 1.0, double 0.0, double 0.0>, ptr %t
  %d1 = call double (ptr, ...) @__enzyme_fwddiff(ptr @top, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 1.0, double 0.0>, ptr %t
  %d2 = call double (ptr, ...) @__enzyme_fwddiff(ptr @top, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> <double 0.0, double 0.0, double 0.0, double 1.0>, ptr %t
  %d3 = call double (ptr, ...) @__enzyme_fwddiff(ptr @top, double %s, double 0.0, ptr @enzyme_dup, ptr %p, ptr %t)
  store <4 x double> zeroinitializer, ptr %t
  %ds = call double (ptr, ...) @__enzyme_fwddiff(ptr @top, double %s, double 1.0, ptr @enzyme_dup, ptr %p, ptr %t)
  %v0 = insertelement <4 x double> undef, double %d0, i32 0
  %v1 = insertelement <4 x double> %v0, double %d1, i32 1
  %v2 = insertelement <4 x double> %v1, double %d2, i32 2
  %v3 = insertelement <4 x double> %v2, double %d3, i32 3
  call void @show(ptr %name, <4 x double> %v3, double %ds)
  ret void
}

define void @show(ptr %name, <4 x double> %d, double %ds) {
  %a = extractelement <4 x double> %d, i32 0
  %b = extractelement <4 x double> %d, i32 1
  %c = extractelement <4 x double> %d, i32 2
  %e = extractelement <4 x double> %d, i32 3
  call i32 (ptr, ...) @printf(ptr @fmt4, ptr %name, double %a, double %b, double %c, double %e, double %ds)
  ret void
}

@n.prod = private constant [9 x i8] c"rev-prod\00"
@n.prod0 = private constant [10 x i8] c"rev-prod0\00"
@n.prod00 = private constant [11 x i8] c"rev-prod00\00"
@n.fprod0 = private constant [10 x i8] c"fwd-prod0\00"
@n.sumsq = private constant [10 x i8] c"rev-sumsq\00"
@n.fsumsq = private constant [10 x i8] c"fwd-sumsq\00"
@n.top = private constant [8 x i8] c"rev-top\00"
@n.ftop = private constant [8 x i8] c"fwd-top\00"

define i32 @main() {
  call void @grad.prod(ptr @n.prod, double 2.0, <4 x double> <double 1.5, double -2.0, double 0.5, double 4.0>)
  call void @grad.prod(ptr @n.prod0, double 2.0, <4 x double> <double 1.5, double 0.0, double 0.5, double 4.0>)
  call void @grad.prod(ptr @n.prod00, double 2.0, <4 x double> <double 0.0, double 3.0, double 0.0, double 4.0>)
  call void @tangents.prod(ptr @n.fprod0, double 2.0, <4 x double> <double 1.5, double 0.0, double 0.5, double 4.0>)
  call void @grad.sumsq(ptr @n.sumsq, double 0.5, <4 x double> <double 1.0, double 2.0, double -1.5, double 3.0>)
  call void @tangents.sumsq(ptr @n.fsumsq, double 0.5, <4 x double> <double 1.0, double 2.0, double -1.5, double 3.0>)
  call void @grad.top(ptr @n.top, double 0.0, <4 x double> <double 1.0, double 0x7FF8000000000000, double 7.5, double 3.0>)
  call void @tangents.top(ptr @n.ftop, double 0.0, <4 x double> <double 1.0, double 0x7FF8000000000000, double 7.5, double 3.0>)
  ret i32 0
}

; d/dx_k = s * prod of the others, d/ds = prod x.
; CHECK: rev-prod -8 6 -24 -3 | -6
; One zero lane: only its partial is nonzero.
; CHECK: rev-prod0 0 6 0 0 | 0
; Two zero lanes: every partial is zero.
; CHECK: rev-prod00 0 0 0 0 | 0
; CHECK: fwd-prod0 0 6 0 0 | 0
; 2 (s + sum x) = 2 * 5
; CHECK: rev-sumsq 10 10 10 10 | 10
; CHECK: fwd-sumsq 10 10 10 10 | 10
; CHECK: rev-top 0 0 3 0 | 0
; CHECK: fwd-top 0 0 3 0 | 0
