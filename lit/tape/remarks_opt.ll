; opt's spelling of the tape remarks: -pass-remarks=enzyme (per function and
; loop: bytes per iteration, what and why), -pass-remarks-missed=enzyme (each
; value taped rather than recomputed). From rem2.c (clang -g -O2): x[i] is
; overwritten at line 7, so its load at line 6 is taped.
; RUN: %opt %loadenzyme -passes=enzyme -pass-remarks=enzyme -disable-output %s 2>&1 | %FileCheck %s --check-prefix=PASS
; RUN: %opt %loadenzyme -passes=enzyme -pass-remarks-missed=enzyme -disable-output %s 2>&1 | %FileCheck %s --check-prefix=MISSED
; RUN: %opt %loadenzyme -passes=enzyme -disable-output %s 2>&1 | %FileCheck %s --check-prefix=QUIET --allow-empty
; PASS: remark: rem2.c:3:0: reverse mode of 'scale': tape 8 bytes per iteration in loops (1 loop), 0 bytes outside loops
; PASS-NEXT: remark: rem2.c:6:16: reverse mode of 'scale': loop at rem2.c:6 tapes 8 bytes per iteration: a 'load' (double, 8 bytes, rem2.c:6): the memory it loads is overwritten at rem2.c:7
; PASS-NOT: remark
; MISSED: remark: rem2.c:6:16: reverse mode of 'scale': a 'load' (double, 8 bytes, rem2.c:6) is taped per iteration of the loop at rem2.c:6, not recomputed: the memory it loads is overwritten at rem2.c:7
; MISSED-NOT: remark
; QUIET-NOT: remark
; ModuleID = 'rem2.c'
source_filename = "rem2.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree nosync nounwind memory(argmem: readwrite) uwtable
define dso_local double @scale(ptr nocapture noundef %0, i32 noundef %1) #0 !dbg !11 {
  call void @llvm.dbg.value(metadata ptr %0, metadata !18, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i32 %1, metadata !19, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata double 0.000000e+00, metadata !20, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i32 0, metadata !21, metadata !DIExpression()), !dbg !27
  %3 = icmp sgt i32 %1, 0, !dbg !28
  br i1 %3, label %4, label %6, !dbg !29

4:                                                ; preds = %2
  %5 = zext i32 %1 to i64, !dbg !28
  br label %8, !dbg !29

6:                                                ; preds = %8, %2
  %7 = phi double [ 0.000000e+00, %2 ], [ %14, %8 ], !dbg !26
  ret double %7, !dbg !30

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %15, %8 ]
  %10 = phi double [ 0.000000e+00, %4 ], [ %14, %8 ]
  call void @llvm.dbg.value(metadata double %10, metadata !20, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i64 %9, metadata !21, metadata !DIExpression()), !dbg !27
  %11 = getelementptr inbounds double, ptr %0, i64 %9, !dbg !31
  %12 = load double, ptr %11, align 8, !dbg !31, !tbaa !32
  call void @llvm.dbg.value(metadata double %12, metadata !23, metadata !DIExpression()), !dbg !36
  %13 = fmul double %12, 2.000000e+00, !dbg !37
  store double %13, ptr %11, align 8, !dbg !38, !tbaa !32
  %14 = tail call double @llvm.fmuladd.f64(double %12, double %12, double %10), !dbg !39
  call void @llvm.dbg.value(metadata double %14, metadata !20, metadata !DIExpression()), !dbg !26
  %15 = add nuw nsw i64 %9, 1, !dbg !40
  call void @llvm.dbg.value(metadata i64 %15, metadata !21, metadata !DIExpression()), !dbg !27
  %16 = icmp eq i64 %15, %5, !dbg !28
  br i1 %16, label %6, label %8, !dbg !29, !llvm.loop !41
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr #2 !dbg !45 {
  call void @llvm.dbg.value(metadata ptr %0, metadata !49, metadata !DIExpression()), !dbg !52
  call void @llvm.dbg.value(metadata ptr %1, metadata !50, metadata !DIExpression()), !dbg !52
  call void @llvm.dbg.value(metadata i32 %2, metadata !51, metadata !DIExpression()), !dbg !52
  %4 = load i32, ptr @enzyme_dup, align 4, !dbg !53, !tbaa !54
  %5 = load i32, ptr @enzyme_const, align 4, !dbg !56, !tbaa !54
  %6 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @scale, i32 noundef %4, ptr noundef %0, ptr noundef %1, i32 noundef %5, i32 noundef %2) #5, !dbg !57
  ret void, !dbg !58
}

declare !dbg !59 double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #3

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare void @llvm.dbg.value(metadata, metadata, metadata) #4

attributes #0 = { nofree nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!4, !5, !6, !7, !8, !9}
!llvm.ident = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 16.0.6 (15~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "rem2.c", directory: ".", checksumkind: CSK_MD5, checksum: "4de51ccabb8a7ca80b2e9e4e9c965a29")
!2 = !{!3}
!3 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = !{i32 2, !"Debug Info Version", i32 3}
!6 = !{i32 1, !"wchar_size", i32 4}
!7 = !{i32 8, !"PIC Level", i32 2}
!8 = !{i32 7, !"PIE Level", i32 2}
!9 = !{i32 7, !"uwtable", i32 2}
!10 = !{!"Debian clang version 16.0.6 (15~deb12u1)"}
!11 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 3, type: !12, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !17)
!12 = !DISubroutineType(types: !13)
!13 = !{!14, !15, !16}
!14 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!15 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!16 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!17 = !{!18, !19, !20, !21, !23}
!18 = !DILocalVariable(name: "x", arg: 1, scope: !11, file: !1, line: 3, type: !15)
!19 = !DILocalVariable(name: "n", arg: 2, scope: !11, file: !1, line: 3, type: !16)
!20 = !DILocalVariable(name: "s", scope: !11, file: !1, line: 4, type: !14)
!21 = !DILocalVariable(name: "i", scope: !22, file: !1, line: 5, type: !16)
!22 = distinct !DILexicalBlock(scope: !11, file: !1, line: 5, column: 3)
!23 = !DILocalVariable(name: "t", scope: !24, file: !1, line: 6, type: !14)
!24 = distinct !DILexicalBlock(scope: !25, file: !1, line: 5, column: 31)
!25 = distinct !DILexicalBlock(scope: !22, file: !1, line: 5, column: 3)
!26 = !DILocation(line: 0, scope: !11)
!27 = !DILocation(line: 0, scope: !22)
!28 = !DILocation(line: 5, column: 21, scope: !25)
!29 = !DILocation(line: 5, column: 3, scope: !22)
!30 = !DILocation(line: 10, column: 3, scope: !11)
!31 = !DILocation(line: 6, column: 16, scope: !24)
!32 = !{!33, !33, i64 0}
!33 = !{!"double", !34, i64 0}
!34 = !{!"omnipotent char", !35, i64 0}
!35 = !{!"Simple C/C++ TBAA"}
!36 = !DILocation(line: 0, scope: !24)
!37 = !DILocation(line: 7, column: 14, scope: !24)
!38 = !DILocation(line: 7, column: 10, scope: !24)
!39 = !DILocation(line: 8, column: 7, scope: !24)
!40 = !DILocation(line: 5, column: 27, scope: !25)
!41 = distinct !{!41, !29, !42, !43, !44}
!42 = !DILocation(line: 9, column: 3, scope: !22)
!43 = !{!"llvm.loop.mustprogress"}
!44 = !{!"llvm.loop.unroll.disable"}
!45 = distinct !DISubprogram(name: "grad", scope: !1, file: !1, line: 12, type: !46, scopeLine: 12, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !48)
!46 = !DISubroutineType(types: !47)
!47 = !{null, !15, !15, !16}
!48 = !{!49, !50, !51}
!49 = !DILocalVariable(name: "x", arg: 1, scope: !45, file: !1, line: 12, type: !15)
!50 = !DILocalVariable(name: "dx", arg: 2, scope: !45, file: !1, line: 12, type: !15)
!51 = !DILocalVariable(name: "n", arg: 3, scope: !45, file: !1, line: 12, type: !16)
!52 = !DILocation(line: 0, scope: !45)
!53 = !DILocation(line: 13, column: 36, scope: !45)
!54 = !{!55, !55, i64 0}
!55 = !{!"int", !34, i64 0}
!56 = !DILocation(line: 13, column: 55, scope: !45)
!57 = !DILocation(line: 13, column: 3, scope: !45)
!58 = !DILocation(line: 14, column: 1, scope: !45)
!59 = !DISubprogram(name: "__enzyme_autodiff", scope: !1, file: !1, line: 2, type: !60, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized, retainedNodes: !62)
!60 = !DISubroutineType(types: !61)
!61 = !{!14, !3, null}
!62 = !{}
