; Memory copied through an integer with no type to say whether it holds a
; float: an error naming the value and its source line, with a hint.
; -enzyme-loose-types treats it as an integer instead.
; RUN: %opt %loadenzyme -passes=print-activity-analysis -disable-output %s 2>&1 | %FileCheck %s
; RUN: %opt %loadenzyme -passes=print-activity-analysis -enzyme-loose-types -disable-output %s 2>&1 | %FileCheck %s --check-prefix=LOOSE

define void @mv(ptr %a, ptr %b) !dbg !6 {
entry:
  %x = load i64, ptr %a, !dbg !9
  store i64 %x, ptr %b, !dbg !9
  ret void
}

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = !{i32 7, !"Dwarf Version", i32 5}
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, emissionKind: FullDebug)
!3 = !DIFile(filename: "mv.c", directory: "/tmp")
!6 = distinct !DISubprogram(name: "mv", scope: !3, file: !3, line: 3, type: !7, unit: !2, spFlags: DISPFlagDefinition)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !DILocation(line: 4, column: 3, scope: !6)

; CHECK: type analysis: cannot deduce the type of the memory at offset 0 of %a
; CHECK-SAME: hint:
; CHECK-SAME: -enzyme-loose-types
; CHECK-NEXT: in function 'mv' at mv.c:4
; CHECK-NEXT: instruction: %x = load i64, ptr %a

; LOOSE-LABEL: activity: mv
; LOOSE-NEXT: arg ptr %a : active
; LOOSE-NEXT: arg ptr %b : active
; LOOSE-NEXT: %x = load i64, ptr %a, align 4, !dbg !{{[0-9]+}} : const
