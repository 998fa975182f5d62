; Integers are active only when they carry a float's bits: an i64 load of
; a double (union punning) is active, an i64 load of an integer field of
; the same struct is constant.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s

define void @copy(ptr %dst, ptr %src) {
entry:
  %d = load double, ptr %src
  %bits = load i64, ptr %src
  store i64 %bits, ptr %dst
  %pn = getelementptr inbounds i8, ptr %src, i64 8
  %n = load i64, ptr %pn
  %n2 = add i64 %n, 1
  %qn = getelementptr inbounds i8, ptr %dst, i64 8
  store i64 %n2, ptr %qn
  ret void
}

; CHECK-LABEL: activity: copy
; CHECK-NEXT: arg ptr %dst : active
; CHECK-NEXT: arg ptr %src : active
; CHECK-NEXT: %d = load double, ptr %src, align 8 : unused
; CHECK-NEXT: %bits = load i64, ptr %src, align 4 : active
; CHECK-NEXT: store i64 %bits, ptr %dst, align 4 : active
; CHECK-NEXT: %pn = getelementptr inbounds i8, ptr %src, i64 8 : const
; CHECK-NEXT: %n = load i64, ptr %pn, align 4 : const
