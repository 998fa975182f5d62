; Known math functions: floats by their LLVM types, integer arguments
; (ldexp's exponent, powi's power) are integers.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

declare double @sin(double)
declare double @ldexp(double, i32)
declare double @llvm.powi.f64.i32(double, i32)

define double @f(double %x, i32 %e, i32 %k) {
entry:
  %s = call double @sin(double %x)
  %l = call double @ldexp(double %s, i32 %e)
  %p = call double @llvm.powi.f64.i32(double %l, i32 %k)
  ret double %p
}

; CHECK-LABEL: types: f
; CHECK-NEXT: arg double %x : {[0]:Float@double}
; CHECK-NEXT: arg i32 %e : {[0]:Integer}
; CHECK-NEXT: arg i32 %k : {[0]:Integer}
; CHECK-NEXT: %s = call double @sin(double %x) : {[0]:Float@double}
