; Globals: their initializer's type, and accesses through constant GEPs
; (which type the global itself).
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

@g = global { double, i32 } zeroinitializer
@table = global [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]
@raw = global [16 x i8] zeroinitializer

define double @f(i64 %i) {
entry:
  %n = load i32, ptr getelementptr inbounds ({ double, i32 }, ptr @g, i64 0, i32 1)
  %n2 = mul i32 %n, 2
  %p = getelementptr inbounds [4 x double], ptr @table, i64 0, i64 %i
  %t = load double, ptr %p
  store float 2.0, ptr getelementptr inbounds (i8, ptr @raw, i64 4)
  %r = load float, ptr getelementptr inbounds (i8, ptr @raw, i64 4)
  %d = fpext float %r to double
  %s = fadd double %t, %d
  ret double %s
}

; CHECK-LABEL: types: f
; CHECK-NEXT: arg i64 %i : {[0]:Integer}
; CHECK-NEXT: %n = load i32, {{.*}} : {[0]:Integer}
; CHECK-NEXT: %n2 = mul i32 %n, 2 : {[0]:Integer}
; CHECK-NEXT: %p = getelementptr inbounds [4 x double], ptr @table, i64 0, i64 %i : {[0]:Pointer, [0,-1]:Float@double}
; CHECK-NEXT: %t = load double, ptr %p, align 8 : {[0]:Float@double}
; CHECK-NEXT: %r = load float, {{.*}} : {[0]:Float@float}
