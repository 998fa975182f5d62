; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; realloc of a pointer loaded from memory the caller owns (a growing
; buffer's, as a tape's): no allocation of the function names the old
; block, so the augmented sweep puts it and its shadow on the free list,
; freed at the gradient's call site after the reverse sweep.

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

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

; CHECK-LABEL: define double @test(
; CHECK: %[[MARK:[0-9]+]] = call i64 @enzyme_rs.freelist.mark()
; CHECK: call void @enzyme_rs.freelist.release(i64 %[[MARK]])

; CHECK-LABEL: define internal void @enzyme_rs.aug.grow(
; CHECK: %old = load ptr, ptr %slot
; CHECK: %[[OLDS:[0-9]+]] = load ptr, ptr %"slot'"
; CHECK: %new = call ptr @malloc(i64 16)
; CHECK: %"new'" = call ptr @malloc(i64 16)
; CHECK: call void @enzyme_rs.freelist.push(ptr %old, ptr @free, i64 0, i64 1)
; CHECK-NEXT: call void @enzyme_rs.freelist.push(ptr %[[OLDS]], ptr @free, i64 0, i64 1)
; CHECK: ret void
