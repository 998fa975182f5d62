; ThinLTO pre-link: a call whose target has no body here is deferred (its
; callee renamed so an unprocessed link fails readably), an anchor calls the
; target for the ThinLTO importer and reads its published registrations,
; a call whose target is here is done now.
; RUN: %opt %loadenzyme -passes=enzyme-lto-prelink -S %s | %FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)
declare double @remote(double)

define internal double @local(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @caller(double %x) {
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @remote, double %x)
  %b = call double (ptr, ...) @__enzyme_autodiff(ptr @local, double %x)
  %s = fadd double %a, %b
  ret double %s
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"EnableSplitLTOUnit", i32 0}

; CHECK: @__enzyme_register_gradient_lto.remote = extern_weak constant [3 x ptr]
; CHECK: @__enzyme_register_derivative_lto.remote = extern_weak constant [2 x ptr]
; CHECK: @__enzyme_inactivefn_lto.remote = extern_weak constant [1 x ptr]
; CHECK-LABEL: define double @caller(double %x) {
; CHECK: call void @enzyme_rs.lto.anchor()
; CHECK-NEXT: call double (ptr, ...) @"__enzyme_autodiff [deferred by enzyme-rs to the link{{.*}}"(ptr {{.*}}@remote, double %x)
; CHECK-NOT: @__enzyme_autodiff(ptr @local
; CHECK: ret double
; CHECK-LABEL: define internal void @enzyme_rs.lto.anchor() {
; CHECK: call double @remote(double 0.000000e+00)
; CHECK: store volatile ptr @__enzyme_register_gradient_lto.remote
; CHECK: ret void
; CHECK: !enzyme_rs.lto.prelink = !{![[S:[0-9]+]]}
; CHECK: ![[S]] = !{!"thin"}
