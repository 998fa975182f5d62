; A returned pointer: the caller's use types the callee's return value and
; the memory behind it.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

declare ptr @malloc(i64)

define internal ptr @make(i64 %n) {
entry:
  %sz = shl i64 %n, 3
  %p = call ptr @malloc(i64 %sz)
  ret ptr %p
}

define double @use(i64 %n) {
entry:
  %a = call ptr @make(i64 %n)
  store double 1.0, ptr %a
  %x = load double, ptr %a
  ret double %x
}

; CHECK-LABEL: types: make
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
; CHECK-NEXT: %sz = shl i64 %n, 3 : {[0]:Integer}
; CHECK-NEXT: %p = call ptr @malloc(i64 %sz) : {[0]:Pointer, [0,0]:Float@double}
; CHECK-LABEL: types: use
; CHECK: %a = call ptr @make(i64 %n) : {[0]:Pointer, [0,0]:Float@double}
