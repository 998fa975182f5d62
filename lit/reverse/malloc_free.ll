; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; A heap temporary: the augmented sweep allocates a zeroed shadow next to
; it and defers the free; the reverse sweep frees both when it has undone
; the allocation.

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare void @free(ptr)

define double @tmp(double %x) {
entry:
  %p = call ptr @malloc(i64 8)
  store double %x, ptr %p
  %v = load double, ptr %p
  %m = fmul double %v, %v
  call void @free(ptr %p)
  ret double %m
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @tmp, double %x)
  ret double %d
}

; CHECK-LABEL: define internal double @enzyme_rs.aug.tmp(double %x, ptr %tape)
; CHECK: %p = call ptr @malloc(i64 8)
; CHECK-NEXT: %"p'" = call ptr @malloc(i64 8)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr {{.*}}%"p'", i8 0, i64 8, i1 false)
; CHECK-NOT: call void @free
; CHECK: ret double %m

; CHECK-LABEL: define internal double @enzyme_rs.rev.tmp(
; CHECK: call void @free(ptr %"p'.tape")
; CHECK-NEXT: call void @free(ptr %p.tape)
