; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; realloc of active memory: the augmented sweep allocates a new block and
; a new shadow and copies min(old usable size, new size) bytes into both
; (the shadow: no more than the old shadow's usable size);
; the old block's free is deferred to the reverse sweep, whose memcpy
; adjoint adds the new shadow back into the old one.

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @malloc(i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)

define double @grow(double %x) {
entry:
  %p = call ptr @malloc(i64 8)
  store double %x, ptr %p
  %q = call ptr @realloc(ptr %p, i64 16)
  %v = load double, ptr %q
  %m = fmul double %v, %v
  call void @free(ptr %q)
  ret double %m
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @grow, double %x)
  ret double %d
}

; The shadows are zeroed over their whole usable size (the copy of k bytes
; reaches past the 8 asked for where malloc's block is larger), and the old
; shadow is copied no further than its own usable size.
; CHECK-LABEL: define internal double @enzyme_rs.aug.grow(double %x, ptr %tape)
; CHECK-NOT: @realloc(
; CHECK: %"p'" = call ptr @malloc(i64 8)
; CHECK: %[[PU:[0-9]+]] = call i64 @malloc_usable_size(ptr %"p'")
; CHECK: call void @llvm.memset.p0.i64(ptr {{.*}}%"p'", i8 0, i64 %[[PU]], i1 false)
; CHECK: %[[OLD:[0-9]+]] = call i64 @malloc_usable_size(ptr %p)
; CHECK: %[[K:[0-9]+]] = select i1 %{{[0-9]+}}, i64 %[[OLD]], i64 16
; CHECK: %q = call ptr @malloc(i64 16)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%q, ptr {{.*}}%p, i64 %[[K]], i1 false)
; CHECK: %"q'" = call ptr @malloc(i64 16)
; CHECK: %[[QU:[0-9]+]] = call i64 @malloc_usable_size(ptr %"q'")
; CHECK: call void @llvm.memset.p0.i64(ptr {{.*}}%"q'", i8 0, i64 %[[QU]], i1 false)
; CHECK: %[[SU:[0-9]+]] = call i64 @malloc_usable_size(ptr %"p'")
; CHECK: %[[SK:[0-9]+]] = select i1 %{{[0-9]+}}, i64 %[[SU]], i64 %[[K]]
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%"q'", ptr {{.*}}%"p'", i64 %[[SK]], i1 false)
; CHECK-NOT: call void @free
; CHECK: ret double

; CHECK-LABEL: define internal double @enzyme_rs.rev.grow(
; CHECK: call void @enzyme_rs.memcpy.adjoint.f64(ptr %"q'.tape", ptr %"p'.tape", i64 %{{.*}})
; CHECK: call void @free(ptr %"q'.tape")
; CHECK: call void @free(ptr %"p'.tape")
