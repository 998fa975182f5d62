; malloc returns a pointer to fresh memory; what is stored there types it.
; Its size is an integer.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare void @free(ptr)

define void @f(i64 %n, double %x) {
entry:
  %p = call ptr @malloc(i64 %n)
  store double %x, ptr %p
  %q = call ptr @calloc(i64 %n, i64 4)
  %q1 = getelementptr inbounds i32, ptr %q, i64 1
  store i32 7, ptr %q1
  call void @free(ptr %p)
  call void @free(ptr %q)
  ret void
}

; CHECK-LABEL: types: f
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
; CHECK-NEXT: arg double %x : {[0]:Float@double}
; CHECK-NEXT: %p = call ptr @malloc(i64 %n) : {[0]:Pointer, [0,0]:Float@double}
; CHECK-NEXT: %q = call ptr @calloc(i64 %n, i64 4) : {[0]:Pointer, [0,4]:Integer}
