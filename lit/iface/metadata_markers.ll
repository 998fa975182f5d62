; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s
; Activity markers spelled as metadata strings (as IR written by hand or by
; other front ends does, and Enzyme's own IR tests): the same as the marker
; globals.
declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)

define double @scale(ptr %x, double %k) {
  %v = load double, ptr %x
  %r = fmul double %v, %k
  ret double %r
}

define void @grad(ptr %x, ptr %dx, double %k) {
  %r = call double (...) @__enzyme_autodiff(ptr @scale, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_const", double %k)
  ret void
}
; CHECK-LABEL: define void @grad(
; CHECK-NOT: @__enzyme_autodiff
; CHECK: ret void

define double @tangent(ptr %x, ptr %tx, double %k) {
  %r = call double (...) @__enzyme_fwddiff(ptr @scale, metadata !"enzyme_dup", ptr %x, ptr %tx, metadata !"enzyme_const", double %k)
  ret double %r
}
; CHECK-LABEL: define double @tangent(
; CHECK-NOT: @__enzyme_fwddiff
; CHECK: ret double
