; Enzyme's type annotations tell type analysis what memory holds:
; __enzyme_double(p, 16) is two doubles, __enzyme_integer(q, 4) four
; integer bytes, __enzyme_pointer(r) one pointer, __enzyme_float with an
; unknown size floats at every offset.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

declare void @__enzyme_double(ptr, i64)
declare void @__enzyme_integer(ptr, i64)
declare void @__enzyme_pointer(ptr)
declare void @_Z14__enzyme_floatPvm(ptr, i64)

define void @hinted(ptr %p, ptr %q, ptr %r, ptr %s, i64 %n) {
entry:
  call void @__enzyme_double(ptr %p, i64 16)
  call void @__enzyme_integer(ptr %q, i64 4)
  call void @__enzyme_pointer(ptr %r)
  call void @_Z14__enzyme_floatPvm(ptr %s, i64 %n)
  ret void
}

; CHECK-LABEL: types: hinted
; CHECK-NEXT: arg ptr %p : {[0]:Pointer, [0,0]:Float@double, [0,8]:Float@double}
; CHECK-NEXT: arg ptr %q : {[0]:Pointer, [0,0]:Integer, [0,1]:Integer, [0,2]:Integer, [0,3]:Integer}
; CHECK-NEXT: arg ptr %r : {[0]:Pointer, [0,0]:Pointer}
; CHECK-NEXT: arg ptr %s : {[0]:Pointer, [0,-1]:Float@float}
; CHECK-NEXT: arg i64 %n : {[0]:Integer}
