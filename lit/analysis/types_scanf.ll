; scanf's format string types the memory its pointer arguments point to.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

@.fmt = private constant [10 x i8] c"%lf %f %d\00"

declare i32 @__isoc99_scanf(ptr, ...)

define void @read(ptr %d, ptr %f, ptr %n) {
entry:
  %r = call i32 (ptr, ...) @__isoc99_scanf(ptr @.fmt, ptr %d, ptr %f, ptr %n)
  ret void
}

; CHECK-LABEL: types: read
; CHECK-NEXT: arg ptr %d : {[0]:Pointer, [0,0]:Float@double}
; CHECK-NEXT: arg ptr %f : {[0]:Pointer, [0,0]:Float@float}
; CHECK-NEXT: arg ptr %n : {[0]:Pointer, [0,0]:Integer}
