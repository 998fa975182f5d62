; Pointers to memory that type analysis proves holds no floats are
; constant, even when derived from an active pointer: the integer field of
; a struct, and loads from it.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s

%struct.V = type { ptr, i64 }

define double @first(ptr %v) {
entry:
  %pn = getelementptr inbounds %struct.V, ptr %v, i64 0, i32 1
  %n = load i64, ptr %pn
  %nm = mul i64 %n, 2
  %pd = getelementptr inbounds %struct.V, ptr %v, i64 0, i32 0
  %d = load ptr, ptr %pd
  %e = getelementptr inbounds double, ptr %d, i64 %nm
  %x = load double, ptr %e
  ret double %x
}

; CHECK-LABEL: activity: first
; CHECK-NEXT: arg ptr %v : active
; CHECK-NEXT: %pn = getelementptr {{.*}} : const
; CHECK-NEXT: %n = load i64, ptr %pn, align 4 : const
; CHECK-NEXT: %nm = mul i64 %n, 2 : const
; CHECK-NEXT: %pd = getelementptr {{.*}} : active
; CHECK-NEXT: %d = load ptr, ptr %pd, align 8 : active
; CHECK-NEXT: %e = getelementptr inbounds double, ptr %d, i64 %nm : active
; CHECK-NEXT: %x = load double, ptr %e, align 8 : active
