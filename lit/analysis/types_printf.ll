; printf's format string types its variadic arguments: %f a double (held
; in an i64 here), %d an integer, %s a pointer to chars.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

@.fmt = private constant [13 x i8] c"%f %5d %s %%\00"

declare i32 @printf(ptr, ...)

define void @show(i64 %bits, i64 %n, ptr %name) {
entry:
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i64 %bits, i64 %n, ptr %name)
  ret void
}

; CHECK-LABEL: types: show
; CHECK-NEXT: arg i64 %bits : {[0]:Float@double}
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
; CHECK-NEXT: arg ptr %name : {[0]:Pointer, [0,-1]:Integer}
; CHECK-NEXT: %r = call {{.*}} : {[0]:Integer}
