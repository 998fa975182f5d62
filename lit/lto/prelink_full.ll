; Full LTO pre-link (module flag ThinLTO = 0): the call is deferred, no
; anchor (the link merges every module), and registrations are kept in
; llvm.compiler.used so the link's dead-symbol pruning does not drop them.
; RUN: %opt %loadenzyme -passes=enzyme-lto-prelink -S %s | %FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare double @remote(double)
declare double @lib(double)
declare double @lib_fwd(double, double)

@__enzyme_register_derivative_lib = global [2 x ptr] [ptr @lib, ptr @lib_fwd]

define double @caller(double %x) {
  %a = call double (ptr, ...) @__enzyme_fwddiff(ptr @remote, double %x, double 1.0)
  ret double %a
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"ThinLTO", i32 0}

; CHECK: @llvm.compiler.used = appending global [1 x ptr] [ptr @__enzyme_register_derivative_lib], section "llvm.metadata"
; CHECK-NOT: _lto.
; CHECK-LABEL: define double @caller(double %x) {
; CHECK-NEXT: call double (ptr, ...) @"__enzyme_fwddiff [deferred by enzyme-rs to the link{{.*}}"(ptr @remote, double %x, double 1.000000e+00)
; CHECK-NOT: anchor
; CHECK: ![[S:[0-9]+]] = !{!"full"}
