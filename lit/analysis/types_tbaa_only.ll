; Integer-typed accesses typed by their TBAA tags alone (as after SROA or
; memcpy lowering): "double" bits moved through an i64, a "long", and an
; "any pointer".
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define void @move(ptr %a, ptr %b, ptr %c, ptr %d) {
entry:
  %x = load i64, ptr %a, !tbaa !1
  store i64 %x, ptr %b, !tbaa !1
  %n = load i64, ptr %c, !tbaa !5
  %p = load i64, ptr %d, !tbaa !7
  ret void
}

!1 = !{!2, !2, i64 0}
!2 = !{!"double", !3, i64 0}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!6, !6, i64 0}
!6 = !{!"long", !3, i64 0}
!7 = !{!8, !8, i64 0}
!8 = !{!"any pointer", !3, i64 0}

; CHECK-LABEL: types: move
; CHECK-NEXT: arg ptr %a : {[0]:Pointer, [0,0]:Float@double}
; CHECK-NEXT: arg ptr %b : {[0]:Pointer, [0,0]:Float@double}
; CHECK-NEXT: arg ptr %c : {[0]:Pointer, [0,0]:Integer}
; CHECK-NEXT: arg ptr %d : {[0]:Pointer, [0,0]:Pointer}
; CHECK-NEXT: %x = load i64, {{.*}} : {[0]:Float@double}
; CHECK-NEXT: %n = load i64, {{.*}} : {[0]:Integer}
; CHECK-NEXT: %p = load i64, {{.*}} : {[0]:Pointer}
