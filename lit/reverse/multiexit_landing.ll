; RUN: env ENZYME_RS_ONE_LOOP_ENTRY=1 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; RUN: env ENZYME_RS_ONE_LOOP_ENTRY=1 %opt %loadenzyme -passes=enzyme -S %s | %opt -passes='print<loops>' -disable-output 2>&1 | %FileCheck %s --check-prefix=LOOPS
; RUN: env ENZYME_RS_ONE_LOOP_ENTRY=0 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s --check-prefix=OFF
; RUN: env ENZYME_RS_ONE_LOOP_ENTRY=0 %opt %loadenzyme -passes=enzyme -S %s | %opt -passes='print<loops>' -disable-output 2>&1 | %FileCheck %s --check-prefix=LOOPSOFF
; rev/loops.rs: the reverse of f's loop `while (i < n && x[i] < 10)` (two
; exiting blocks, land.rhs and while.body) is entered from the reverse of
; each exit. Each entering edge and the step back (rev.loop.back) store
; where to start into %rev.start and branch to one landing block, which
; switches on it: the landing is the only entry of the reverse cycle, the
; header of a natural loop that LLVM's loop passes see. g's loop has one
; exiting block (its latch): no landing (must-not). With
; ENZYME_RS_ONE_LOOP_ENTRY=0 each exit's reverse branches into the cycle
; at its own block (two entries: irreducible, no loop for LLVM).

; CHECK-LABEL: define internal void @enzyme_rs.rev.g(
; CHECK-NOT: rev.start
; CHECK-NOT: rev.loop.land
; CHECK: ret void

; CHECK-LABEL: define internal void @enzyme_rs.rev.f(
; CHECK: %rev.start = alloca i32
; CHECK: rev.pop.land.rhs: {{.*}}; preds = %rev.loop.land.land.rhs, %rev.while.body{{$}}
; CHECK: rev.land.rhs.while.end_crit_edge:
; CHECK: store i32 1, ptr %rev.start
; CHECK: br label %rev.loop.land.land.rhs
; CHECK: rev.pop.while.body: {{.*}}; preds = %rev.loop.land.land.rhs{{$}}
; CHECK: rev.while.cond.while.end_crit_edge:
; CHECK: store i32 0, ptr %rev.start
; CHECK: br label %rev.loop.land.land.rhs
; CHECK: rev.loop.back:
; CHECK: store i32 0, ptr %rev.start
; CHECK-NEXT: br label %rev.loop.land.land.rhs
; CHECK: rev.loop.land.land.rhs:
; CHECK-NEXT: %[[K:[0-9]+]] = load i32, ptr %rev.start
; CHECK-NEXT: switch i32 %[[K]], label %rev.pop.while.body [
; CHECK-NEXT: i32 1, label %rev.pop.land.rhs
; CHECK-NEXT: ]

; LOOPS: Loop at depth 1 containing: %rev.pop.for.body<header>,%rev.for.body<exiting>,%rev.loop.back<latch>
; LOOPS: Loop at depth 1 containing: %rev.loop.land.land.rhs<header>,{{.*}}%rev.land.rhs<exiting>,%rev.loop.back<latch>

; OFF-LABEL: define internal void @enzyme_rs.rev.f(
; OFF-NOT: rev.start
; OFF: rev.pop.land.rhs: {{.*}}; preds = %rev.while.body, %rev.land.rhs.while.end_crit_edge
; OFF: rev.pop.while.body: {{.*}}; preds = %rev.while.cond.while.end_crit_edge, %rev.loop.back
; OFF-NOT: rev.loop.land

; LOOPSOFF: Loop at depth 1 containing: %rev.pop.for.body<header>
; LOOPSOFF-NOT: Loop at depth 1 containing: %rev.

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define double @f(ptr %x, i32 %n) {
entry:
  %cmp6 = icmp slt i32 0, %n
  br i1 %cmp6, label %land.rhs.lr.ph, label %while.end

land.rhs.lr.ph:                                   ; preds = %entry
  br label %land.rhs

land.rhs:                                         ; preds = %land.rhs.lr.ph, %while.body
  %i.08 = phi i32 [ 0, %land.rhs.lr.ph ], [ %inc, %while.body ]
  %s.07 = phi double [ 0.000000e+00, %land.rhs.lr.ph ], [ %2, %while.body ]
  %idxprom = zext i32 %i.08 to i64
  %arrayidx = getelementptr inbounds double, ptr %x, i64 %idxprom
  %0 = load double, ptr %arrayidx, align 8
  %cmp1 = fcmp olt double %0, 1.000000e+01
  br i1 %cmp1, label %while.body, label %land.rhs.while.end_crit_edge

while.body:                                       ; preds = %land.rhs
  %idxprom2 = zext i32 %i.08 to i64
  %arrayidx3 = getelementptr inbounds double, ptr %x, i64 %idxprom2
  %1 = load double, ptr %arrayidx3, align 8
  %2 = call double @llvm.fmuladd.f64(double %s.07, double %1, double 1.000000e+00)
  %inc = add nuw nsw i32 %i.08, 1
  %cmp = icmp slt i32 %inc, %n
  br i1 %cmp, label %land.rhs, label %while.cond.while.end_crit_edge

while.cond.while.end_crit_edge:                   ; preds = %while.body
  %split = phi double [ %2, %while.body ]
  br label %while.end

land.rhs.while.end_crit_edge:                     ; preds = %land.rhs
  %split9 = phi double [ %s.07, %land.rhs ]
  br label %while.end

while.end:                                        ; preds = %land.rhs.while.end_crit_edge, %while.cond.while.end_crit_edge, %entry
  %s.0.lcssa = phi double [ %split, %while.cond.while.end_crit_edge ], [ %split9, %land.rhs.while.end_crit_edge ], [ 0.000000e+00, %entry ]
  ret double %s.0.lcssa
}

declare double @llvm.fmuladd.f64(double, double, double)

define double @g(ptr %x, i32 %n) {
entry:
  %cmp4 = icmp slt i32 0, %n
  br i1 %cmp4, label %for.body.lr.ph, label %for.end

for.body.lr.ph:                                   ; preds = %entry
  br label %for.body

for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %i.06 = phi i32 [ 0, %for.body.lr.ph ], [ %inc, %for.body ]
  %s.05 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %1, %for.body ]
  %idxprom = zext i32 %i.06 to i64
  %arrayidx = getelementptr inbounds double, ptr %x, i64 %idxprom
  %0 = load double, ptr %arrayidx, align 8
  %1 = call double @llvm.fmuladd.f64(double %s.05, double %0, double 1.000000e+00)
  %inc = add nuw nsw i32 %i.06, 1
  %cmp = icmp slt i32 %inc, %n
  br i1 %cmp, label %for.body, label %for.cond.for.end_crit_edge

for.cond.for.end_crit_edge:                       ; preds = %for.body
  %split = phi double [ %1, %for.body ]
  br label %for.end

for.end:                                          ; preds = %for.cond.for.end_crit_edge, %entry
  %s.0.lcssa = phi double [ %split, %for.cond.for.end_crit_edge ], [ 0.000000e+00, %entry ]
  ret double %s.0.lcssa
}

define void @grad_f(ptr %x, ptr %d, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr nonnull @f, i32 %0, ptr %x, ptr %d, i32 %1, i32 %n)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

define void @grad_g(ptr %x, ptr %d, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr nonnull @g, i32 %0, ptr %x, ptr %d, i32 %1, i32 %n)
  ret void
}

