; A struct reached through a pointer: each field typed at its offset.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

%struct.S = type { double, i32, ptr }

define double @f(ptr %s) {
entry:
  %px = getelementptr inbounds %struct.S, ptr %s, i64 0, i32 0
  %x = load double, ptr %px
  %pn = getelementptr inbounds %struct.S, ptr %s, i64 0, i32 1
  %n = load i32, ptr %pn
  %n2 = add i32 %n, 1
  store i32 %n2, ptr %pn
  %pw = getelementptr inbounds %struct.S, ptr %s, i64 0, i32 2
  %w = load ptr, ptr %pw
  %y = load float, ptr %w
  %yd = fpext float %y to double
  %r = fmul double %x, %yd
  ret double %r
}

; CHECK-LABEL: types: f
; CHECK-NEXT: arg ptr %s : {[0]:Pointer, [0,0]:Float@double, [0,8]:Integer, [0,16]:Pointer, [0,16,0]:Float@float}
; CHECK-NEXT: %px = {{.*}} : {[0]:Pointer, [0,0]:Float@double, [0,8]:Integer, [0,16]:Pointer, [0,16,0]:Float@float}
; CHECK-NEXT: %x = load double, ptr %px, align 8 : {[0]:Float@double}
; CHECK-NEXT: %pn = {{.*}} : {[0]:Pointer, [0,0]:Integer, [0,8]:Pointer, [0,8,0]:Float@float}
; CHECK-NEXT: %n = load i32, ptr %pn, align 4 : {[0]:Integer}
; CHECK: %pw = {{.*}} : {[0]:Pointer, [0,0]:Pointer, [0,0,0]:Float@float}
; CHECK-NEXT: %w = load ptr, ptr %pw, align 8 : {[0]:Pointer, [0,0]:Float@float}
