; A struct copy typed only by clang's !tbaa.struct: neither side is
; accessed otherwise.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @copy(ptr %dst, ptr %src) {
entry:
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 16, i1 false), !tbaa.struct !0
  ret void
}

!0 = !{i64 0, i64 8, !1, i64 8, i64 4, !5}
!1 = !{!2, !2, i64 0}
!2 = !{!"double", !3, i64 0}
!3 = !{!"omnipotent char", !4, i64 0}
!4 = !{!"Simple C/C++ TBAA"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !3, i64 0}

; CHECK-LABEL: types: copy
; CHECK-NEXT: arg ptr %dst : {[0]:Pointer, [0,0]:Float@double, [0,8]:Integer}
; CHECK-NEXT: arg ptr %src : {[0]:Pointer, [0,0]:Float@double, [0,8]:Integer}
