; fabs through integers: bitcast, mask the sign bit, bitcast back. The
; masked integer still holds a double.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @myfabs(double %x) {
entry:
  %b = bitcast double %x to i64
  %m = and i64 %b, 9223372036854775807
  %r = bitcast i64 %m to double
  ret double %r
}

; CHECK-LABEL: types: myfabs
; CHECK-NEXT: arg double %x : {[0]:Float@double}
; CHECK-NEXT: %b = bitcast double %x to i64 : {[0]:Float@double}
; CHECK-NEXT: %m = and i64 %b, 9223372036854775807 : {[0]:Float@double}
; CHECK-NEXT: %r = bitcast i64 %m to double : {[0]:Float@double}
