; RUN: not %opt %loadenzyme -passes=enzyme -S %s -o /dev/null 2>&1 | %FileCheck %s
; RUN: not %opt %loadenzyme -passes=enzyme -enzyme-check -S %s -o /dev/null 2>&1 | %FileCheck %s
; A target extension type in the signature: refused at the call, also
; under the self-check (whose thunks once asked LLVM for the type's
; alignment, which recursed until the stack overflowed).
declare double @__enzyme_autodiff(...)
define double @target_ext(double %x, target("foo") %t) {
  %y = fmul double %x, %x
  ret double %y
}
define double @caller(double %x, target("foo") %t) {
  %c = call double (...) @__enzyme_autodiff(ptr @target_ext, double %x, target("foo") %t)
  ret double %c
}
; CHECK: values of type target("foo") (a scalable vector or a target extension type, whose size is not fixed) cannot be differentiated
; CHECK: instruction: %c = call double (...) @__enzyme_autodiff(ptr @target_ext
