; RUN: not %opt %loadenzyme -passes=enzyme -S %s -o /dev/null 2>&1 | %FileCheck %s
; Scalable vectors (SVE, RVV) have no fixed size: LLVM's size queries abort
; on them. Differentiating code that loads one is a clear error naming the
; load (it was an abort in the type analysis).
declare double @__enzyme_autodiff(...)
define double @load_scalable(ptr %p) {
  %v = load <vscale x 2 x double>, ptr %p
  %e = extractelement <vscale x 2 x double> %v, i64 0
  ret double %e
}
define double @caller(ptr %p, ptr %dp) {
  %a = call double (...) @__enzyme_autodiff(ptr @load_scalable, ptr %p, ptr %dp)
  ret double %a
}
; CHECK: values of type <vscale x 2 x double> (a scalable vector or a target extension type, whose size is not fixed) cannot be differentiated
; CHECK: instruction: %v = load <vscale x 2 x double>, ptr %p
; CHECK-NOT: LLVM ERROR
