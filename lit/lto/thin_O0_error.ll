; ThinLTO pre-link at -O0: the link will neither import bodies nor run the
; plugin, so a call needing a body from another file is an error now,
; naming the flags that work; calls with bodies here still work.
; RUN: not %opt %loadenzyme -passes=enzyme-lto-prelink-O0 -S %s -o /dev/null 2>&1 | %FileCheck %s

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

; CHECK: error: {{.*}}'remote' (or a function it calls) has no body in this file, and a ThinLTO link at -O0 neither imports bodies nor runs enzyme-rs; build with -flto=full (any -O level) or -flto=thin at -O1 or above
; CHECK-NOT: error:
