; insertvalue/extractvalue and vectors: offsets inside first-class
; aggregates.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define { double, i64 } @mk(double %x, i64 %n) {
entry:
  %m = mul i64 %n, %n
  %a = insertvalue { double, i64 } undef, double %x, 0
  %b = insertvalue { double, i64 } %a, i64 %m, 1
  %e = extractvalue { double, i64 } %b, 1
  ret { double, i64 } %b
}

define double @vec(ptr %p) {
entry:
  %v = load <2 x double>, ptr %p
  %e = extractelement <2 x double> %v, i32 1
  ret double %e
}

; CHECK-LABEL: types: mk
; CHECK: %b = insertvalue {{.*}} : {[0]:Float@double, [8]:Integer}
; CHECK-NEXT: %e = extractvalue {{.*}} : {[0]:Integer}
; CHECK-LABEL: types: vec
; CHECK-NEXT: arg ptr %p : {[0]:Pointer, [0,0]:Float@double, [0,8]:Float@double}
; CHECK-NEXT: %v = load <2 x double>, ptr %p, align 16 : {[0]:Float@double, [8]:Float@double}
