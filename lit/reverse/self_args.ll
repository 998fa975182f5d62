; RUN: env ENZYME_RS_DROP_PARAMS=0 %opt %loadenzyme -passes=enzyme-opt -S %s | %FileCheck %s
; RUN: env ENZYME_RS_DROP_PARAMS=0 ENZYME_RS_SELF_ARGS=0 %opt %loadenzyme -passes=enzyme-opt -S %s | %FileCheck %s --check-prefix=OFF
; Parameters a recursive derivative only hands on to itself (directly or
; through a getelementptr) are passed as poison by its recursive calls
; (modes/reverse/selfargs.rs): the augmented sweep of @walk does not read
; the shadows, its reverse sweep does not read the primal pointers (the
; loaded value comes from the tape). Not where a parameter is passed on
; at another position (@swap's b and c, and their shadows) or used (the
; tape, the shadows in the reverse sweep). Once the pass is done, the
; parameters nothing reads any more leave the signatures
; (selfargs::drop_unused; ENZYME_RS_DROP_PARAMS=0 above keeps them).
; RUN: %opt %loadenzyme -passes=enzyme-opt -S %s | %FileCheck %s --check-prefix=DROP
declare void @__enzyme_autodiff(ptr, ...)

define internal void @walk(ptr %in, ptr %out, i64 %n) {
entry:
  %done = icmp eq i64 %n, 0
  br i1 %done, label %exit, label %body

body:
  %v = load double, ptr %in
  %sq = fmul double %v, %v
  store double %sq, ptr %out
  %in1 = getelementptr inbounds double, ptr %in, i64 1
  %out1 = getelementptr inbounds double, ptr %out, i64 1
  %m = add i64 %n, -1
  call void @walk(ptr %in1, ptr %out1, i64 %m)
  br label %exit

exit:
  ret void
}

define internal void @swap(ptr %a, ptr %b, ptr %c, i64 %n) {
entry:
  %done = icmp eq i64 %n, 0
  br i1 %done, label %exit, label %body

body:
  %v = load double, ptr %a
  %sq = fmul double %v, %v
  store double %sq, ptr %a
  %a1 = getelementptr inbounds double, ptr %a, i64 1
  %m = add i64 %n, -1
  call void @swap(ptr %a1, ptr %c, ptr %b, i64 %m)
  br label %exit

exit:
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %z, ptr %dz) {
entry:
  call void (ptr, ...) @__enzyme_autodiff(ptr @walk, ptr %x, ptr %dx, ptr %y, ptr %dy, i64 8)
  call void (ptr, ...) @__enzyme_autodiff(ptr @swap, ptr %x, ptr %dx, ptr %y, ptr %dy, ptr %z, ptr %dz, i64 8)
  ret void
}

; CHECK-LABEL: define internal void @enzyme_rs.aug.swap(ptr %a, ptr %"a'", ptr %b, ptr %"b'", ptr %c, ptr %"c'", i64 %n, ptr %tape)
; CHECK: call void @enzyme_rs.aug.swap(ptr nonnull %a1, ptr poison, ptr %c, ptr %"c'", ptr %b, ptr %"b'", i64 %m, ptr {{(nonnull )?}}%tape)
; CHECK-LABEL: define internal void @enzyme_rs.rev.swap(ptr %a, ptr %"a'", ptr %b, ptr %"b'", ptr %c, ptr %"c'", i64 %n, ptr %tape)
; CHECK: call void @enzyme_rs.rev.swap(ptr poison, ptr nonnull %{{[0-9]+}}, ptr %c, ptr %"c'", ptr %b, ptr %"b'", i64 %{{[0-9]+}}, ptr nonnull %tape)
; CHECK-LABEL: define internal void @enzyme_rs.aug.walk(ptr %in, ptr %"in'", ptr %out, ptr %"out'", i64 %n, ptr %tape)
; CHECK: call void @enzyme_rs.aug.walk(ptr nonnull %in1, ptr poison, ptr nonnull %out1, ptr poison, i64 %m, ptr {{(nonnull )?}}%tape)
; CHECK-LABEL: define internal void @enzyme_rs.rev.walk(ptr %in, ptr %"in'", ptr %out, ptr %"out'", i64 %n, ptr %tape)
; CHECK: call void @enzyme_rs.rev.walk(ptr poison, ptr nonnull %{{[0-9]+}}, ptr poison, ptr nonnull %{{[0-9]+}}, i64 %{{[0-9]+}}, ptr nonnull %tape)

; OFF-NOT: ptr poison
; OFF-LABEL: define internal void @enzyme_rs.aug.walk(
; OFF: call void @enzyme_rs.aug.walk(ptr nonnull %in1, ptr nonnull %{{[0-9]+}}, ptr nonnull %out1, ptr nonnull %{{[0-9]+}}, i64 %m, ptr {{(nonnull )?}}%tape)
; OFF-NOT: ptr poison

; DROP-LABEL: define internal void @enzyme_rs.aug.swap(ptr %a, ptr %b, ptr %"b'", ptr %c, ptr %"c'", i64 %n, ptr %tape)
; DROP: call void @enzyme_rs.aug.swap(ptr nonnull %a1, ptr %c, ptr %"c'", ptr %b, ptr %"b'", i64 %m, ptr {{(nonnull )?}}%tape)
; DROP-LABEL: define internal void @enzyme_rs.rev.swap(ptr %"a'", ptr %b, ptr %"b'", ptr %c, ptr %"c'", i64 %n, ptr %tape)
; DROP: call void @enzyme_rs.rev.swap(ptr nonnull %{{[0-9]+}}, ptr %c, ptr %"c'", ptr %b, ptr %"b'", i64 %{{[0-9]+}}, ptr nonnull %tape)
; DROP-LABEL: define internal void @enzyme_rs.aug.walk(ptr %in, ptr %out, i64 %n, ptr %tape)
; DROP: call void @enzyme_rs.aug.walk(ptr nonnull %in1, ptr nonnull %out1, i64 %m, ptr {{(nonnull )?}}%tape)
; DROP-LABEL: define internal void @enzyme_rs.rev.walk(ptr %"in'", ptr %"out'", i64 %n, ptr %tape)
; DROP: call void @enzyme_rs.rev.walk(ptr nonnull %{{[0-9]+}}, ptr nonnull %{{[0-9]+}}, i64 %{{[0-9]+}}, ptr nonnull %tape)
; DROP-NOT: ptr poison
