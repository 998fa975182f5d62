; double** : a pointer to pointers to doubles (rows of a matrix).
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @get(ptr %m, i64 %i, i64 %j) {
entry:
  %prow = getelementptr inbounds ptr, ptr %m, i64 %i
  %row = load ptr, ptr %prow
  %pe = getelementptr inbounds double, ptr %row, i64 %j
  %e = load double, ptr %pe
  ret double %e
}

; CHECK-LABEL: types: get
; CHECK-NEXT: arg ptr %m : {[0]:Pointer, [0,-1]:Pointer, [0,-1,-1]:Float@double}
; CHECK-NEXT: arg i64 %i : {[0]:Integer}
; CHECK-NEXT: arg i64 %j : {[0]:Integer}
; CHECK-NEXT: %prow = {{.*}} : {[0]:Pointer, [0,-1]:Pointer, [0,-1,-1]:Float@double}
; CHECK-NEXT: %row = load ptr, ptr %prow, align 8 : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: %pe = {{.*}} : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: %e = load double, ptr %pe, align 8 : {[0]:Float@double}
