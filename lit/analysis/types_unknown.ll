; Memory only moved through integers, with nothing to say what it holds,
; stays unknown (printed as an empty tree).
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define void @mv(ptr %a, ptr %b) {
entry:
  %x = load i64, ptr %a
  store i64 %x, ptr %b
  ret void
}

; CHECK-LABEL: types: mv
; CHECK-NEXT: arg ptr %a : {[0]:Pointer}
; CHECK-NEXT: arg ptr %b : {[0]:Pointer}
; CHECK-NEXT: %x = load i64, ptr %a, align 4 : {}
