; An array of {double, i64} walked with a variable index: the offsets of
; the pointer argument's memory repeat every 16 bytes.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

%struct.P = type { double, i64 }

define double @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %pv = getelementptr inbounds %struct.P, ptr %a, i64 %i, i32 0
  %v = load double, ptr %pv
  %pk = getelementptr inbounds %struct.P, ptr %a, i64 %i, i32 1
  %k = load i64, ptr %pk
  %kf = sitofp i64 %k to double
  %t = fmul double %v, %kf
  %s.next = fadd double %s, %t
  %i.next = add nuw i64 %i, 1
  %c = icmp ult i64 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s.next
}

; CHECK-LABEL: types: sum
; CHECK-NEXT: arg ptr %a : {[0]:Pointer, [0,0+16k]:Float@double, [0,8+16k]:Integer}
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
; CHECK-NEXT: %i = phi i64 {{.*}} : {[0]:Integer}
; CHECK-NEXT: %s = phi double {{.*}} : {[0]:Float@double}
; CHECK-NEXT: %pv = {{.*}} : {[0]:Pointer, [0,0+16k]:Float@double, [0,8+16k]:Integer}
; CHECK-NEXT: %v = load double, ptr %pv, align 8 : {[0]:Float@double}
; CHECK-NEXT: %pk = {{.*}} : {[0]:Pointer, [0,0+16k]:Integer, [0,8+16k]:Float@double}
; CHECK-NEXT: %k = load i64, ptr %pk, align 4 : {[0]:Integer}
