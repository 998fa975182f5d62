; RUN: %opt %loadenzyme -enzyme-preopt=false -enzyme-postopt -enzyme-inline-count=3 -enzyme-coalese -enzyme-attributor=0 -enzyme-print-perf -enzyme-max-type-offset=100 -enzyme-checkpoint-split-steps -enzyme-global-activity=1 -enzyme-strong-zero -passes=enzyme -S %s | %FileCheck %s
; Options of Enzyme's own pipeline that scripts written for Enzyme pass are
; accepted (and change nothing here).

declare double @__enzyme_fwddiff(ptr, ...)

define double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @test(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, double %x, double 1.0)
  ret double %d
}

; CHECK-LABEL: define double @test(
; CHECK-NOT: __enzyme_fwddiff
; CHECK: ret double
