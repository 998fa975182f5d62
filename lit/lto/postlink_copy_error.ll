; ThinLTO post-link: a call of this module differentiating an imported
; copy whose own deferred call cannot be done here is an error naming the
; flag that works.
; RUN: not %opt %loadenzyme -passes=enzyme-lto-postlink -disable-output %s 2>&1 | %FileCheck --check-prefix=ERR %s

declare double @"__enzyme_autodiff [deferred by enzyme-rs to the link: load the plugin in the link too (-Wl,--load-pass-plugin=libenzyme_rs.so), and link ThinLTO at -O1 or above]"(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @big(double)

define available_externally double @grad(double %x) {
  %d = call double (ptr, ...) @"__enzyme_autodiff [deferred by enzyme-rs to the link: load the plugin in the link too (-Wl,--load-pass-plugin=libenzyme_rs.so), and link ThinLTO at -O1 or above]"(ptr @big, double %x)
  ret double %d
}

define double @user(double %x) {
  %g = call double @grad(double %x)
  ret double %g
}

define double @second_order(double %x) {
  %h = call double (ptr, ...) @__enzyme_fwddiff(ptr @grad, double %x, double 1.0)
  ret double %h
}

!enzyme_rs.lto.prelink = !{!0}
!0 = !{!"thin"}

; ERR: error: {{.*}}'grad' (or a function it calls) holds a differentiation call that cannot be done in this module at link time
; ERR-SAME: use -flto=full
; ERR-NOT: 'big'
