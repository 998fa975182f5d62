; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; Second order over a realloc of a loaded pointer (a growing buffer's, as
; a tape's in a differentiated gradient). The first order lowers the
; realloc to malloc + memcpy of the block and of its shadow, both copies
; flagged !enzyme_rs.realloc_copy; differentiated again, each flagged copy
; copies its own shadow forward whole (bounded by the old shadow's usable
; size), since the type analysis cannot know which of a tape's bytes are
; pointers whose shadows must move with the block (a third-order gradient
; once read a null shadow from a grown tape). The new blocks' shadows are
; zeroed over their whole usable size, which the next growth copies.

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)

define void @grow(ptr %slot, double %x) noinline {
entry:
  %old = load ptr, ptr %slot
  %new = call ptr @realloc(ptr %old, i64 16)
  store ptr %new, ptr %slot
  %at = getelementptr double, ptr %new, i64 1
  store double %x, ptr %at
  ret void
}

define double @f(double %x) {
entry:
  %slot = alloca ptr
  store ptr null, ptr %slot
  call void @grow(ptr %slot, double %x)
  call void @grow(ptr %slot, double %x)
  %p = load ptr, ptr %slot
  %at = getelementptr double, ptr %p, i64 1
  %v = load double, ptr %at
  %m = fmul double %v, %v
  call void @free(ptr %p)
  ret double %m
}

define double @g(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double %x)
  ret double %d
}

; CHECK-LABEL: define internal void @enzyme_rs.aug.grow(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %new, ptr align 1 %old, {{.*}}), !enzyme_rs.realloc_copy
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %"new'", {{.*}}), !enzyme_rs.realloc_copy
; CHECK: ret void

; CHECK-LABEL: define internal void @enzyme_rs.aug.enzyme_rs.aug.grow(
; CHECK: %old = load ptr, ptr %slot
; CHECK-NEXT: %[[OLD2:[0-9]+]] = load ptr, ptr %"slot'"
; CHECK-NEXT: %[[OLDS:[0-9]+]] = load ptr, ptr %"slot'1"
; CHECK-NEXT: %[[OLDSS:[0-9]+]] = load ptr, ptr %"slot''"
; CHECK: %new = call ptr @malloc(i64 16)
; CHECK-NEXT: %[[NEW2:"new'[0-9]+"]] = call ptr @malloc(i64 16)
; CHECK-NEXT: %[[U:[0-9]+]] = call i64 @malloc_usable_size(ptr %[[NEW2]])
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 %[[NEW2]], i8 0, i64 %[[U]], i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %new, ptr align 1 %old, {{.*}}), !enzyme_rs.realloc_copy
; CHECK-NEXT: %[[U2:[0-9]+]] = call i64 @malloc_usable_size(ptr %[[OLD2]])
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %[[NEW2]], ptr align 1 %[[OLD2]], {{.*}}), !enzyme_rs.realloc_copy
; CHECK: %"new''" = call ptr @malloc(i64 16)
; CHECK-NEXT: %[[U3:[0-9]+]] = call i64 @malloc_usable_size(ptr %"new''")
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 1 %"new''", i8 0, i64 %[[U3]], i1 false)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %"new'", ptr align 1 %[[OLDS]], {{.*}}), !enzyme_rs.realloc_copy
; CHECK: %[[U4:[0-9]+]] = call i64 @malloc_usable_size(ptr %[[OLDSS]])
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 1 %"new''", ptr align 1 %[[OLDSS]], {{.*}}), !enzyme_rs.realloc_copy
; CHECK: call void @enzyme_rs.freelist.push(ptr %old, ptr @free, i64 0, i64 1)
; CHECK: ret void
