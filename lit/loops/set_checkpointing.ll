; Enzyme's IR-level loop marker, __enzyme_set_checkpointing(mode, count)
; (what Enzyme's clang plugin and Enzyme-JAX emit), read like enzyme-rs's
; own with `opt` on both LLVMs: mode 2 (binomial) becomes revolve with the
; count as its snapshots, the call leaves the primal, and the gradient runs
; the loop through the checkpointing runtime. __enzyme_set_mincut is
; removed (the min-cut is always on).
; RUN: %opt %loadenzyme -passes=enzyme -pass-remarks=enzyme -S %s -o %t.ll 2>&1 | %FileCheck %s --check-prefix=REMARK
; RUN: %FileCheck %s < %t.ll

@g = global [2 x double] zeroinitializer

declare void @__enzyme_set_checkpointing(i64, i64)
declare void @__enzyme_set_mincut(i64)
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.sin.f64(double)

define double @run(double %x, i64 %n) {
entry:
  store double %x, ptr @g
  %go = icmp sgt i64 %n, 0
  br i1 %go, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @__enzyme_set_checkpointing(i64 2, i64 3)
  call void @__enzyme_set_mincut(i64 0)
  %a = load double, ptr @g
  %s = call double @llvm.sin.f64(double %a)
  %m = fmul double %s, %x
  store double %m, ptr @g
  %i.next = add i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %exit

exit:
  %r = load double, ptr @g
  ret double %r
}

define double @grad(double %x, i64 %n) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @run, double %x, i64 %n)
  ret double %d
}

; REMARK: remark: {{.*}}reverse mode of 'run': the loop is checkpointed (revolve, 3; as a checkpointed for loop)

; CHECK-NOT: call void @__enzyme_set_checkpointing
; CHECK-NOT: call void @__enzyme_set_mincut
; CHECK-LABEL: define double @run(
; CHECK: br i1 %more, label %loop, label %exit, !llvm.loop [[L:![0-9]+]]
; CHECK-LABEL: define double @grad(
; CHECK: call {{.*}}@__enzyme_rs_loops_scheme(i32 3)
; CHECK: [[L]] = distinct !{[[L]], [[P:![0-9]+]], [[U:![0-9]+]]}
; CHECK: [[P]] = !{!"enzyme_rs.checkpoint", i64 3, i64 3}
