; RUN: env ENZYME_RS_DEAD_ZEROS=0 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s --check-prefix=DEAD
; RUN: env ENZYME_RS_FORWARD_ZEROED=0 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s --check-prefix=OFF
; An in-place update (a butterfly): x[0], x[1] = x[0] + x[1], x[0] - x[1].
; The reverse of each store reads and zeroes the shadow slot; the reverse
; of the loads then adds into the same slots. With nothing between that
; may write a slot (the other slot is at a constant distance from the
; same base, the adjoint slots are allocas), the adjoint is stored as it
; is: no reload of the zero and no `0.0 + d` (which LLVM may not fold).

declare void @__enzyme_autodiff(ptr, ...)

define void @bfly(ptr %x) {
entry:
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %a = load double, ptr %x
  %b = load double, ptr %p1
  %s = fadd double %a, %b
  %d = fsub double %a, %b
  store double %s, ptr %x
  store double %d, ptr %p1
  ret void
}

define void @test(ptr %x, ptr %dx) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @bfly, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.rev.bfly(
; The reverse of the two stores: read and zero each slot.
; CHECK: load double, ptr %[[P1:[0-9]+]]
; CHECK-NEXT: store double 0.000000e+00, ptr %[[P1]]
; CHECK: load double, ptr %"x'"
; CHECK-NEXT: store double 0.000000e+00, ptr %"x'"
; The reverse of the two loads: the adjoints are stored, not added to a
; reloaded zero.
; CHECK-NOT: fadd double 0.000000e+00
; CHECK: store double %{{[0-9]+}}, ptr %[[P1]]
; CHECK-NOT: load double, ptr %"x'"
; CHECK: store double %{{[0-9]+}}, ptr %"x'"
; CHECK: ret void

; OFF-LABEL: define internal void @enzyme_rs.rev.bfly(
; OFF: store double 0.000000e+00, ptr %"x'"
; OFF: %[[OLD:[0-9]+]] = load double, ptr %"x'"
; OFF-NEXT: fadd double %[[OLD]]

; DEAD-LABEL: define internal void @enzyme_rs.rev.bfly(
; DEAD: %[[P1:[0-9]+]] = getelementptr inbounds double, ptr %"x'", i64 1
; DEAD-NEXT: load double, ptr %[[P1]]
; DEAD-NOT: store double 0.000000e+00
; DEAD: load double, ptr %"x'"
; DEAD-NOT: store double 0.000000e+00
; DEAD: store double %{{[0-9]+}}, ptr %[[P1]]
; DEAD: store double %{{[0-9]+}}, ptr %"x'"
; DEAD: ret void
