; RUN: not %opt %loadenzyme -passes=enzyme -S %s -o /dev/null 2>&1 | %FileCheck %s
; Forward mode: a GEP over a scalable vector type is refused (the layout
; of such a GEP has no fixed offset).
declare double @__enzyme_fwddiff(...)
define double @gep_scalable(ptr %p) {
  %q = getelementptr <vscale x 2 x double>, ptr %p, i64 1
  %e = load double, ptr %q
  ret double %e
}
define double @caller(ptr %p, ptr %dp) {
  %b = call double (...) @__enzyme_fwddiff(ptr @gep_scalable, ptr %p, ptr %dp)
  ret double %b
}
; CHECK: values of type <vscale x 2 x double>
; CHECK: instruction: %q = getelementptr <vscale x 2 x double>, ptr %p, i64 1
; CHECK-NOT: LLVM ERROR
