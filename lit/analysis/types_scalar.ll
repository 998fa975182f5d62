; Floats and pointers are typed by LLVM; integers by what is done with them.
; RUN: %opt %loadenzyme -passes=print-type-analysis -disable-output %s 2>&1 | %FileCheck %s

define double @f(double %x, float %y, i32 %n, i64 %m) {
entry:
  %a = fmul double %x, %x
  %b = fpext float %y to double
  %c = fadd double %a, %b
  %k = mul i32 %n, 3
  %d = sitofp i32 %k to double
  %e = fdiv double %c, %d
  %z = icmp eq i64 %m, 7
  %r = select i1 %z, double %e, double 0.0
  ret double %r
}

; CHECK-LABEL: types: f
; CHECK-NEXT: arg double %x : {[0]:Float@double}
; CHECK-NEXT: arg float %y : {[0]:Float@float}
; CHECK-NEXT: arg i32 %n : {[0]:Integer}
; CHECK-NEXT: arg i64 %m : {[0]:Integer}
; CHECK-NEXT: %a = fmul double %x, %x : {[0]:Float@double}
; CHECK-NEXT: %b = fpext float %y to double : {[0]:Float@double}
; CHECK-NEXT: %c = fadd double %a, %b : {[0]:Float@double}
; CHECK-NEXT: %k = mul i32 %n, 3 : {[0]:Integer}
; CHECK-NEXT: %d = sitofp i32 %k to double : {[0]:Float@double}
; CHECK: %z = icmp eq i64 %m, 7 : {[0]:Integer}
; CHECK-NEXT: %r = select i1 %z, double %e, double 0.000000e+00 : {[0]:Float@double}
