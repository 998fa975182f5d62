; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s

declare double @__enzyme_autodiff(ptr, ...)

define double @square(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @square, double %x)
  ret double %d
}

; The call becomes aug + rev with a tape in the caller's frame.
; CHECK-LABEL: define double @test(double %x)
; CHECK: %[[T:.+]] = alloca { ptr, i64, i64, i64 }
; CHECK: call double @enzyme_rs.aug.square(double %x, ptr %[[T]])
; CHECK: %[[D:.+]] = call double @enzyme_rs.rev.square(double %x, double 1.000000e+00, ptr %[[T]])
; CHECK: ret double %[[D]]

; The augmented sweep is the primal; x is an argument, so nothing is pushed.
; CHECK-LABEL: define internal double @enzyme_rs.aug.square(double %x, ptr %tape)
; CHECK-NEXT: entry:
; CHECK-NEXT: %m = fmul double %x, %x
; CHECK-NEXT: ret double %m

; The reverse sweep: seed the result, then dx += x * dm twice.
; CHECK-LABEL: define internal double @enzyme_rs.rev.square(double %x, double %{{.*}}, ptr %tape)
; CHECK: %[[A:[0-9]+]] = fmul double %x, %[[DM:[0-9]+]]
; CHECK: %[[B:[0-9]+]] = fmul double %x, %[[DM]]
; CHECK-NOT: call ptr @enzyme_rs.tape.pop
; CHECK: ret double
