; union { double d; long i; }: a double stored, its bits read as an integer.
; The integer holds a float (Float wins over Integer in a conflict).
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define i64 @bits(double %x) {
entry:
  %u = alloca double, align 8
  store double %x, ptr %u
  %i = load i64, ptr %u
  ret i64 %i
}

define double @back(i64 %b) {
entry:
  %u = alloca i64, align 8
  store i64 %b, ptr %u
  %d = load double, ptr %u
  ret double %d
}

; CHECK-LABEL: types: bits
; CHECK-NEXT: arg double %x : {[0]:Float@double}
; CHECK-NEXT: %u = alloca double, align 8 : {[0]:Pointer, [0,0]:Float@double}
; CHECK-NEXT: %i = load i64, ptr %u, {{.*}} : {[0]:Float@double}
; CHECK-LABEL: types: back
; CHECK-NEXT: arg i64 %b : {[0]:Float@double}
; CHECK-NEXT: %u = alloca i64, align 8 : {[0]:Pointer, [0,0]:Float@double}
