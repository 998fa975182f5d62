; Calls link arguments and parameters both ways: the callee's loads type
; the caller's pointer, the caller's store types the callee's parameter.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define internal double @first(ptr %v) {
entry:
  %x = load double, ptr %v
  ret double %x
}

define internal void @setn(ptr %p, i64 %n) {
entry:
  store i64 %n, ptr %p
  ret void
}

define double @caller(ptr %buf, ptr %cnt) {
entry:
  %r = call double @first(ptr %buf)
  call void @setn(ptr %cnt, i64 3)
  %k = load i64, ptr %cnt
  %m = mul i64 %k, 2
  ret double %r
}

; CHECK-LABEL: types: first
; CHECK-NEXT: arg ptr %v : {[0]:Pointer, [0,0]:Float@double}
; CHECK-LABEL: types: setn
; CHECK-NEXT: arg ptr %p : {[0]:Pointer, [0,0]:Integer}
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
; CHECK-LABEL: types: caller
; CHECK-NEXT: arg ptr %buf : {[0]:Pointer, [0,0]:Float@double}
; CHECK-NEXT: arg ptr %cnt : {[0]:Pointer, [0,0]:Integer}
; CHECK-NEXT: %r = call double @first(ptr %buf) : {[0]:Float@double}
