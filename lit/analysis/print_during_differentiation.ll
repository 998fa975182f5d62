; -enzyme-print-type and -enzyme-print-activity print the analyses of each
; function as it is differentiated.
; RUN: %opt %loadenzyme -passes=enzyme -enzyme-print-type -enzyme-print-activity -disable-output %s 2>&1 | %FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @square(double %x, i32 %n) {
entry:
  %m = fmul double %x, %x
  %k = mul i32 %n, %n
  ret double %m
}

define double @test(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @square, double %x, double 1.0, i32 3)
  ret double %d
}

; CHECK: types: enzyme_rs.fwd.square (forward derivative of square)
; CHECK: %m = fmul double %x, %x : {[0]:Float@double}
; CHECK: %k = mul i32 %n, %n : {[0]:Integer}
; CHECK: activity: enzyme_rs.fwd.square (forward derivative of square)
; CHECK: %m = fmul double %x, %x : active
; CHECK: %k = mul i32 %n, %n : const
