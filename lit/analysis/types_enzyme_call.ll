; The arguments at an __enzyme_autodiff call type the differentiated
; function's parameters (primal and shadow alike).
; RUN: %opt %loadenzyme -passes=print-type-analysis -enzyme-function=f -disable-output %s 2>&1 | %FileCheck %s

@enzyme_dup = external global i32
@enzyme_const = external global i32

declare double @__enzyme_autodiff(ptr, ...)

define internal double @f(ptr %x, ptr %meta) {
entry:
  %v = load i64, ptr %x
  %b = bitcast i64 %v to double
  ret double %b
}

define void @main_like(ptr %xs, ptr %dxs, i64 %k) {
entry:
  %m = alloca i64
  store i64 %k, ptr %m
  %kk = load i64, ptr %m
  %kk2 = mul i64 %kk, 2
  %d = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %d, ptr %xs, ptr %dxs, i32 %c, ptr %m)
  ret void
}

; CHECK-LABEL: types: f
; CHECK-NEXT: arg ptr %x : {[0]:Pointer, [0,0]:Float@double}
; CHECK-NEXT: arg ptr %meta : {[0]:Pointer, [0,0]:Integer}
; CHECK-NOT: types: main_like
