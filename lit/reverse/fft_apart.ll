; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; RUN: env ENZYME_RS_APART_OFFSETS=0 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s --check-prefix=OFF
; A butterfly on x[k] and x[k + h] (modes/reverse/rev/apart.rs): the
; reverse of each store reads and zeroes its shadow slot, the reverse of
; each load adds into it. Under m > 1, h = m / 2 >= 1 and the two slots of
; one iteration are apart: each adjoint is stored as it is and the zeroing
; store, read by nothing, goes. With h a parameter (it may be 0: one slot)
; the zero is reloaded and added to.
declare void @__enzyme_autodiff(ptr, ...)

; x[k], x[k + h] = x[k] + x[k + h], x[k] * x[k + h] for k < h = m / 2,
; under m > 1: the two slots are h >= 1 elements apart.
define void @bf(ptr %x, i32 %m) {
entry:
  %c = icmp sgt i32 %m, 1
  br i1 %c, label %pre, label %exit
pre:
  %h = sdiv i32 %m, 2
  %hz = zext i32 %h to i64
  br label %loop
loop:
  %k = phi i64 [ 0, %pre ], [ %k1, %loop ]
  %kt = trunc i64 %k to i32
  %ko = add nsw i32 %kt, %h
  %ko64 = sext i32 %ko to i64
  %pe = getelementptr inbounds double, ptr %x, i64 %k
  %po = getelementptr inbounds double, ptr %x, i64 %ko64
  %a = load double, ptr %pe
  %b = load double, ptr %po
  %s = fadd double %a, %b
  %d = fmul double %a, %b
  store double %s, ptr %pe
  store double %d, ptr %po
  %k1 = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k1, %hz
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The same with the distance h a parameter nothing bounds: h may be 0,
; the two slots then the same.
define void @bf_any(ptr %x, i32 %h, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %kt = trunc i64 %k to i32
  %ko = add nsw i32 %kt, %h
  %ko64 = sext i32 %ko to i64
  %pe = getelementptr inbounds double, ptr %x, i64 %k
  %po = getelementptr inbounds double, ptr %x, i64 %ko64
  %a = load double, ptr %pe
  %b = load double, ptr %po
  %s = fadd double %a, %b
  %d = fmul double %a, %b
  store double %s, ptr %pe
  store double %d, ptr %po
  %k1 = add nuw nsw i64 %k, 1
  %done = icmp eq i64 %k1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @test(ptr %x, ptr %dx, i32 %m, i64 %n) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @bf, ptr %x, ptr %dx, i32 %m)
  call void (ptr, ...) @__enzyme_autodiff(ptr @bf_any, ptr %x, ptr %dx, i32 %m, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.rev.bf_any(
; CHECK: %[[AO:[0-9]+]] = getelementptr inbounds double, ptr %"x'", i64 %{{[0-9]+}}
; CHECK-NEXT: load double, ptr %[[AO]]
; CHECK-NEXT: store double 0.000000e+00, ptr %[[AO]]
; CHECK: %[[OLD:[0-9]+]] = load double, ptr %[[AO]]
; CHECK-NEXT: fadd double %[[OLD]]

; CHECK-LABEL: define internal void @enzyme_rs.rev.bf(
; CHECK: %[[O:[0-9]+]] = getelementptr inbounds double, ptr %"x'", i64 %{{[0-9]+}}
; CHECK-NEXT: %{{[0-9]+}} = load double, ptr %[[O]]
; CHECK-NOT: store double 0.000000e+00
; CHECK: %[[E:[0-9]+]] = getelementptr inbounds double, ptr %"x'", i64 %{{[0-9]+}}
; CHECK-NEXT: %{{[0-9]+}} = load double, ptr %[[E]]
; CHECK-NOT: store double 0.000000e+00
; CHECK-NOT: load double, ptr %[[O]]
; CHECK: store double %{{[0-9]+}}, ptr %[[O]]
; CHECK-NOT: load double, ptr %[[E]]
; CHECK: store double %{{[0-9]+}}, ptr %[[E]]

; OFF-LABEL: define internal void @enzyme_rs.rev.bf(
; OFF: %[[O:[0-9]+]] = getelementptr inbounds double, ptr %"x'", i64 %{{[0-9]+}}
; OFF-NEXT: load double, ptr %[[O]]
; OFF-NEXT: store double 0.000000e+00, ptr %[[O]]
; OFF: %[[OLD:[0-9]+]] = load double, ptr %[[O]]
; OFF-NEXT: fadd double %[[OLD]]
