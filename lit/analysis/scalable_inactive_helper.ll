; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s
; A helper that only handles integer data in a scalable vector, called by a
; differentiated function: the analyses take its sizes as unknown (LLVM's
; size queries abort on scalable types) and the derivative is built.
declare double @__enzyme_autodiff(...)
define i64 @count(ptr %p) {
  %v = load <vscale x 2 x i64>, ptr %p
  %e = extractelement <vscale x 2 x i64> %v, i64 0
  ret i64 %e
}
define double @scaled(double %x, ptr %ints) {
  %n = call i64 @count(ptr %ints)
  %f = sitofp i64 %n to double
  %y = fmul double %x, %f
  ret double %y
}
define double @caller(double %x, ptr %ints) {
  %d = call double (...) @__enzyme_autodiff(ptr @scaled, double %x, ptr %ints)
  ret double %d
}
; CHECK-LABEL: define double @caller(
; CHECK-NOT: @__enzyme_autodiff
; CHECK: ret double
