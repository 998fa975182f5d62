; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; Loads read the shadow pointer, stores write the tangent through it.

declare void @__enzyme_fwddiff(ptr, ...)

define void @scale(ptr %x, ptr %y) {
entry:
  %v = load double, ptr %x
  %m = fmul double %v, 3.0
  store double %m, ptr %y
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %y, ptr %dy) {
entry:
  call void (ptr, ...) @__enzyme_fwddiff(ptr @scale, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK: call void @enzyme_rs.fwd.scale(ptr %x, ptr %dx, ptr %y, ptr %dy)

; CHECK-LABEL: define internal void @enzyme_rs.fwd.scale(ptr %x, ptr %"x'", ptr %y, ptr %"y'")
; CHECK: %v = load double, ptr %x
; CHECK-NEXT: %[[DV:.+]] = load double, ptr %"x'"
; CHECK-NEXT: %m = fmul double %v, 3.000000e+00
; CHECK-NEXT: %[[DM:.+]] = fmul double 3.000000e+00, %[[DV]]
; CHECK-NEXT: store double %m, ptr %y
; CHECK-NEXT: store double %[[DM]], ptr %"y'"
; CHECK-NEXT: ret void
