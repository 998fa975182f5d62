; -enzyme-function=NAME prints only that function.
; RUN: %opt %loadenzyme -passes=print-type-analysis -enzyme-function=two -disable-output %s 2>&1 | %FileCheck %s

define double @one(double %x) {
  ret double %x
}

define float @two(float %y) {
  ret float %y
}

; CHECK-NOT: types: one
; CHECK: types: two
; CHECK-NEXT: arg float %y : {[0]:Float@float}
; CHECK-NOT: types: one
