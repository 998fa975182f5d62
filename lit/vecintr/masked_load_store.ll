; llvm.masked.load / llvm.masked.store: forward mode loads and stores the
; shadow under the same mask (the passthru's tangent where it is off);
; reverse mode gives the passthru the adjoint of the lanes the mask is off,
; adds the others into the shadow (masked load, add, masked store), and
; reads a store's adjoint from the shadow under the mask, zeroing it there.
; (LLVM 16's alignment operand; LLVM 22 reads it as the pointer's align
; attribute.)
; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4
@enzyme_width = external global i32, align 4
declare void @__enzyme_fwddiff(ptr, ...)
declare void @__enzyme_autodiff(ptr, ...)
declare <4 x double> @llvm.masked.load.v4f64.p0(ptr, i32, <4 x i1>, <4 x double>)
declare void @llvm.masked.store.v4f64.p0(<4 x double>, ptr, i32, <4 x i1>)

; y[k] = (c[k] > 0 ? x[k] : a)^2 where c[k] > 0 (other lanes of y kept)
define void @sq(ptr %x, ptr %y, ptr %c, double %a) {
entry:
  %cv = load <4 x double>, ptr %c, align 8
  %m = fcmp ogt <4 x double> %cv, zeroinitializer
  %ai = insertelement <4 x double> poison, double %a, i32 0
  %as = shufflevector <4 x double> %ai, <4 x double> poison, <4 x i32> zeroinitializer
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr %x, i32 8, <4 x i1> %m, <4 x double> %as)
  %s = fmul <4 x double> %v, %v
  call void @llvm.masked.store.v4f64.p0(<4 x double> %s, ptr %y, i32 8, <4 x i1> %m)
  ret void
}

define void @fwd(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %c, double %a) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @sq, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, ptr %c, double %a, double 1.0)
  ret void
}
define void @fwd2(ptr %x, ptr %dx0, ptr %dx1, ptr %y, ptr %dy0, ptr %dy1, ptr %c, double %a) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @sq, ptr @enzyme_width, i64 2, ptr @enzyme_dup, ptr %x, ptr %dx0, ptr %dx1, ptr @enzyme_dup, ptr %y, ptr %dy0, ptr %dy1, ptr @enzyme_const, ptr %c, ptr @enzyme_const, double %a)
  ret void
}
define void @rev2(ptr %x, ptr %dx0, ptr %dx1, ptr %y, ptr %dy0, ptr %dy1, ptr %c, double %a) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @sq, ptr @enzyme_width, i64 2, ptr @enzyme_dup, ptr %x, ptr %dx0, ptr %dx1, ptr @enzyme_dup, ptr %y, ptr %dy0, ptr %dy1, ptr @enzyme_const, ptr %c, ptr @enzyme_const, double %a)
  ret void
}
define void @rev(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %c, double %a) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @sq, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, ptr %c, double %a)
  ret void
}

; Two tangents: one masked load and one masked store per lane.
; CHECK-LABEL: define internal void @enzyme_rs.fwd2.sq(
; CHECK: %"v'0" = call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%"x'0", {{.*}}<4 x i1> %m, <4 x double> zeroinitializer)
; CHECK-NEXT: %"v'1" = call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%"x'1", {{.*}}<4 x i1> %m, <4 x double> zeroinitializer)
; CHECK: call void @llvm.masked.store.v4f64.p0(<4 x double> %{{.+}}, ptr {{.*}}%"y'0", {{.*}}<4 x i1> %m)
; CHECK-NEXT: call void @llvm.masked.store.v4f64.p0(<4 x double> %{{.+}}, ptr {{.*}}%"y'1", {{.*}}<4 x i1> %m)

; Forward: the shadow loaded with the passthru's tangent, stored under the
; same mask.
; CHECK-LABEL: define internal void @enzyme_rs.fwd.sq(
; CHECK: %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%x, {{.*}}<4 x i1> %m, <4 x double> %as)
; CHECK-NEXT: %"v'" = call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%"x'", {{.*}}<4 x i1> %m, <4 x double> %{{.+}})
; CHECK: call void @llvm.masked.store.v4f64.p0(<4 x double> %s, ptr {{.*}}%y, {{.*}}<4 x i1> %m)
; CHECK-NEXT: call void @llvm.masked.store.v4f64.p0(<4 x double> %{{.+}}, ptr {{.*}}%"y'", {{.*}}<4 x i1> %m)

; CHECK-LABEL: define internal {{.*}} @enzyme_rs.rev.sq(
; The store's reverse: the adjoint of s from y's shadow, zeroed there.
; CHECK: %[[DS:.+]] = call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%"y'", {{.*}}<4 x i1> %[[M:.+]], <4 x double> zeroinitializer)
; CHECK: call void @llvm.masked.store.v4f64.p0(<4 x double> zeroinitializer, ptr {{.*}}%"y'", {{.*}}<4 x i1> %[[M]])
; The load's: the passthru gets the lanes the mask is off...
; CHECK: %[[DP:.+]] = select <4 x i1> %[[M]], <4 x double> {{.+}}, <4 x double> %[[DV:.+]]
; CHECK: fadd <4 x double> %{{.+}}, %[[DP]]
; ... and x's shadow the others.
; CHECK: %[[OLD:.+]] = call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%"x'", {{.*}}<4 x i1> %[[M]], <4 x double> zeroinitializer)
; CHECK-NEXT: %[[NEW:.+]] = fadd <4 x double> %[[OLD]], %[[DV]]
; CHECK-NEXT: call void @llvm.masked.store.v4f64.p0(<4 x double> %[[NEW]], ptr {{.*}}%"x'", {{.*}}<4 x i1> %[[M]])
; The passthru's adjoint (a splat of a) summed into a's.
; CHECK: store double %{{.+}}, ptr %d.a
; CHECK: ret double

; Vector reverse mode: one reverse sweep per lane, each on its shadows.
; CHECK-LABEL: define internal void @enzyme_rs.rev.sq.{{[0-9]+}}(
; CHECK: call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%"y'0",
; CHECK: call void @llvm.masked.store.v4f64.p0(<4 x double> %{{.+}}, ptr {{.*}}%"x'0",
; CHECK-LABEL: define internal void @enzyme_rs.rev1.sq(
; CHECK: call <4 x double> @llvm.masked.load.v4f64.p0(ptr {{.*}}%"y'1",
; CHECK: call void @llvm.masked.store.v4f64.p0(<4 x double> %{{.+}}, ptr {{.*}}%"x'1",
