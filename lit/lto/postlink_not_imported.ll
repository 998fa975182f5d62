; ThinLTO post-link when the importer did not bring the body in (too
; large, or noinline): an error at the call naming the flags that help.
; RUN: not %opt %loadenzyme -passes=enzyme-lto-postlink -disable-output %s 2>&1 | %FileCheck %s

declare double @"__enzyme_autodiff [deferred by enzyme-rs to the link: load the plugin in the link too (-Wl,--load-pass-plugin=libenzyme_rs.so), and link ThinLTO at -O1 or above]"(ptr, ...)
declare double @big(double)

define double @caller(double %x) {
  %a = call double (ptr, ...) @"__enzyme_autodiff [deferred by enzyme-rs to the link: load the plugin in the link too (-Wl,--load-pass-plugin=libenzyme_rs.so), and link ThinLTO at -O1 or above]"(ptr @big, double %x)
  ret double %a
}

!enzyme_rs.lto.prelink = !{!0}
!0 = !{!"thin"}

; CHECK: error: {{.*}}enzyme-rs: no derivative known for external function 'big' at link time: it has no body in this module. If another file defines it, ThinLTO did not import it
; CHECK-SAME: -import-instr-limit=N or use -flto=full
; CHECK: in function 'caller'
; CHECK: instruction: {{.*}}@__enzyme_autodiff(ptr @big
