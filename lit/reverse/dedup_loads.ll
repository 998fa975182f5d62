; The tape of  for (i) s += x[i]*x[i]  (not CSE d: clang -O0 + mem2reg) holds
; one double per iteration with load dedup, two without.
; RUN: %opt %loadenzyme -passes=enzyme -enzyme-print-tape -disable-output %s 2>&1 | %FileCheck %s --check-prefix=DEDUP
; RUN: %opt %loadenzyme -passes=enzyme -enzyme-print-tape -enzyme-dedup-loads=0 -disable-output %s 2>&1 | %FileCheck %s --check-prefix=NODEDUP
; DEDUP: block for.body (loop depth 1): 8 bytes [double
; DEDUP: per innermost iteration: 8 bytes
; NODEDUP: block for.body (loop depth 1): 16 bytes [double {{.*}}, double
; NODEDUP: per innermost iteration: 16 bytes
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

; Function Attrs: noinline nounwind uwtable
define dso_local double @sumsq_then_reset(ptr noundef %x, i32 noundef %n) #0 {
entry:
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %s.0 = phi double [ 0.000000e+00, %entry ], [ %2, %for.inc ]
  %i.0 = phi i32 [ 0, %entry ], [ %inc, %for.inc ]
  %cmp = icmp slt i32 %i.0, %n
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %idxprom = sext i32 %i.0 to i64
  %arrayidx = getelementptr inbounds double, ptr %x, i64 %idxprom
  %0 = load double, ptr %arrayidx, align 8
  %idxprom1 = sext i32 %i.0 to i64
  %arrayidx2 = getelementptr inbounds double, ptr %x, i64 %idxprom1
  %1 = load double, ptr %arrayidx2, align 8
  %2 = call double @llvm.fmuladd.f64(double %0, double %1, double %s.0)
  br label %for.inc

for.inc:                                          ; preds = %for.body
  %inc = add nsw i32 %i.0, 1
  br label %for.cond, !llvm.loop !6

for.end:                                          ; preds = %for.cond
  %arrayidx3 = getelementptr inbounds double, ptr %x, i64 0
  store double 0.000000e+00, ptr %arrayidx3, align 8
  ret double %s.0
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: noinline nounwind uwtable
define dso_local void @grad(ptr noundef %x, ptr noundef %dx, i32 noundef %n) #0 {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr noundef @sumsq_then_reset, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, i32 noundef %n)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) #2

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!6 = distinct !{!6, !7}
!7 = !{!"llvm.loop.mustprogress"}
