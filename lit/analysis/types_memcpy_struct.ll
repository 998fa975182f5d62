; memcpy of a struct {double, i32, float}: the destination gets the
; source's types (and the other way round), within the copied size.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

%struct.M = type { double, i32, float }

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define float @copy(ptr %src) {
entry:
  %tmp = alloca %struct.M, align 8
  %f0 = getelementptr inbounds %struct.M, ptr %src, i64 0, i32 0
  %d = load double, ptr %f0
  %f1 = getelementptr inbounds %struct.M, ptr %src, i64 0, i32 1
  %n = load i32, ptr %f1
  %n1 = add i32 %n, 1
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %src, i64 16, i1 false)
  %g2 = getelementptr inbounds %struct.M, ptr %tmp, i64 0, i32 2
  %y = load float, ptr %g2
  ret float %y
}

; CHECK-LABEL: types: copy
; CHECK-NEXT: arg ptr %src : {[0]:Pointer, [0,0]:Float@double, [0,8]:Integer, [0,12]:Float@float}
; CHECK-NEXT: %tmp = alloca %struct.M, align 8 : {[0]:Pointer, [0,0]:Float@double, [0,8]:Integer, [0,12]:Float@float}
