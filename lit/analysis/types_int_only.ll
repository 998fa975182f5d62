; Integer-only code: a histogram. Everything is an integer; no floats.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define void @hist(ptr %counts, ptr %data, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pd = getelementptr inbounds i32, ptr %data, i64 %i
  %d = load i32, ptr %pd
  %b = and i32 %d, 15
  %bi = zext i32 %b to i64
  %pc = getelementptr inbounds i64, ptr %counts, i64 %bi
  %c = load i64, ptr %pc
  %c1 = add i64 %c, 1
  store i64 %c1, ptr %pc
  %i1 = add i64 %i, 1
  %e = icmp eq i64 %i1, %n
  br i1 %e, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: types: hist
; CHECK-NEXT: arg ptr %counts : {[0]:Pointer, [0,-1]:Integer}
; CHECK-NEXT: arg ptr %data : {[0]:Pointer, [0,-1]:Integer}
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
