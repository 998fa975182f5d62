; A select of pointers types both operands.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define float @sel(ptr %a, ptr %b, i1 %c) {
entry:
  %p = select i1 %c, ptr %a, ptr %b
  %v = load float, ptr %p
  ret float %v
}

; CHECK-LABEL: types: sel
; CHECK-NEXT: arg ptr %a : {[0]:Pointer, [0,0]:Float@float}
; CHECK-NEXT: arg ptr %b : {[0]:Pointer, [0,0]:Float@float}
; CHECK-NEXT: arg i1 %c : {[0]:Integer}
; CHECK-NEXT: %p = select {{.*}} : {[0]:Pointer, [0,0]:Float@float}
