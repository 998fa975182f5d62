; Recursion: the fixed point goes through the recursive call.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @rsum(ptr %a, i64 %n) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double 0.0
rec:
  %n1 = sub i64 %n, 1
  %p = getelementptr inbounds double, ptr %a, i64 %n1
  %x = load double, ptr %p
  %r = call double @rsum(ptr %a, i64 %n1)
  %s = fadd double %x, %r
  ret double %s
}

define double @even(ptr %a, i64 %n) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %base, label %rec
base:
  %v = load float, ptr %a
  %d = fpext float %v to double
  ret double %d
rec:
  %n1 = sub i64 %n, 1
  %r = call double @odd(ptr %a, i64 %n1)
  ret double %r
}

define double @odd(ptr %b, i64 %n) {
entry:
  %n1 = sub i64 %n, 1
  %r = call double @even(ptr %b, i64 %n1)
  ret double %r
}

; CHECK-LABEL: types: rsum
; CHECK-NEXT: arg ptr %a : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
; CHECK: %r = call double @rsum(ptr %a, i64 %n1) : {[0]:Float@double}
; CHECK-LABEL: types: odd
; CHECK-NEXT: arg ptr %b : {[0]:Pointer, [0,0]:Float@float}
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
