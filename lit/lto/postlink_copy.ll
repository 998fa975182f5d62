; ThinLTO post-link of a module that imported another file's function
; holding a deferred call, without the bodies that call needs: the
; imported copy becomes a declaration (its own module differentiates the
; call), and no error.
; RUN: %opt %loadenzyme -passes=enzyme-lto-postlink -S %s -o - | %FileCheck %s

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

!enzyme_rs.lto.prelink = !{!0}
!0 = !{!"thin"}

; CHECK: declare double @grad(double)
; CHECK-LABEL: define double @user(double %x)
; CHECK-NEXT: call double @grad(double %x)
