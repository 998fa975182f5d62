; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; Loads and stores of active memory: the adjoint of `store v, p` reads and
; clears the shadow of p into dv; the adjoint of `load p` adds into it.

declare void @__enzyme_autodiff(ptr, ...)

define void @scale(ptr %x, ptr %y) {
entry:
  %v = load double, ptr %x
  %m = fmul double %v, 3.0
  store double %m, ptr %y
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %y, ptr %dy) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @scale, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK: call void @enzyme_rs.aug.scale(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr
; CHECK: call void @enzyme_rs.rev.scale(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr

; CHECK-LABEL: define internal void @enzyme_rs.rev.scale(ptr %x, ptr %"x'", ptr %y, ptr %"y'", ptr %tape)
; Reverse of the store: take the shadow's value and zero it.
; CHECK: %[[DY:[0-9]+]] = load double, ptr %"y'"
; CHECK-NEXT: store double 0.000000e+00, ptr %"y'"
; Reverse of the fmul by the constant 3.
; CHECK: fmul double 3.000000e+00, %{{[0-9]+}}
; Reverse of the load: the shadow of x accumulates.
; CHECK: %[[OLD:[0-9]+]] = load double, ptr %"x'"
; CHECK-NEXT: %[[NEW:[0-9]+]] = fadd double %[[OLD]], %{{[0-9]+}}
; CHECK-NEXT: store double %[[NEW]], ptr %"x'"
; CHECK: ret void
