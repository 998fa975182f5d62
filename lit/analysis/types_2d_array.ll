; A 2D array [4 x [4 x double]] indexed by two variables: every offset is
; a double.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @at(ptr %m, i64 %i, i64 %j) {
entry:
  %p = getelementptr inbounds [4 x [4 x double]], ptr %m, i64 0, i64 %i, i64 %j
  %v = load double, ptr %p
  ret double %v
}

; CHECK-LABEL: types: at
; CHECK-NEXT: arg ptr %m : {[0]:Pointer, [0,-1]:Float@double}
