; ThinLTO post-link (a module the pre-link half stamped, after the
; importer brought in @remote's body and @lib's published derivative):
; the anchor and its call go, so do the references held to published
; registrations, the entry point gets its name back, the
; deferred call is differentiated,
; through the imported custom derivative of @lib.
; RUN: %opt %loadenzyme -passes=enzyme-lto-postlink -S %s | %FileCheck %s

@__enzyme_register_derivative_lto.lib = available_externally constant [2 x ptr] [ptr @lib, ptr @lib_fwd]
@__enzyme_register_gradient_lto.remote = extern_weak constant [3 x ptr]

declare double @"__enzyme_fwddiff [deferred by enzyme-rs to the link: load the plugin in the link too (-Wl,--load-pass-plugin=libenzyme_rs.so), and link ThinLTO at -O1 or above]"(ptr, ...)
declare double @lib(double)
declare double @lib_fwd(double, double)

define available_externally double @remote(double %x) {
  %h = freeze ptr @__enzyme_register_derivative_lto.lib
  %s = fmul double %x, %x
  %l = call double @lib(double %s)
  ret double %l
}

define double @caller(double %x) {
  call void @enzyme_rs.lto.anchor()
  %a = call double (ptr, ...) @"__enzyme_fwddiff [deferred by enzyme-rs to the link: load the plugin in the link too (-Wl,--load-pass-plugin=libenzyme_rs.so), and link ThinLTO at -O1 or above]"(ptr @remote, double %x, double 1.0)
  ret double %a
}

define internal void @enzyme_rs.lto.anchor() {
  %slot = alloca ptr
  %r = call double @remote(double 0.0)
  store volatile ptr @__enzyme_register_gradient_lto.remote, ptr %slot
  ret void
}


!enzyme_rs.lto.prelink = !{!0}
!0 = !{!"thin"}

; CHECK-NOT: deferred by enzyme-rs
; CHECK-NOT: freeze
; CHECK-NOT: @__enzyme_register_gradient_lto.remote
; CHECK-LABEL: define double @caller(double %x) {
; CHECK-NOT: anchor
; CHECK: call { double, double } @enzyme_rs.fwd.custom.lib(
; CHECK: ret double
; CHECK-NOT: define internal void @enzyme_rs.lto.anchor
; CHECK: define internal { double, double } @enzyme_rs.fwd.custom.lib(
; CHECK: call double @lib_fwd(
