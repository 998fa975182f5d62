; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; memcpy between shadowed buffers copies the shadow with the same length.

declare void @__enzyme_fwddiff(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @copy(ptr %dst, ptr %src, i64 %n) {
entry:
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  ret void
}

define void @test(ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n) {
entry:
  call void (ptr, ...) @__enzyme_fwddiff(ptr @copy, ptr %d, ptr %dd, ptr %s, ptr %ds, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.fwd.copy(ptr %dst, ptr %"dst'", ptr %src, ptr %"src'", i64 %n)
; CHECK: %bytes = shl i64 %n, 3
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%"dst'", ptr {{.*}}%"src'", i64 %bytes, i1 false)
; CHECK-NEXT: ret void
