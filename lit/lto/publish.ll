; ThinLTO pre-link of a file with no differentiation call: each
; registration is published under a predictable weak_odr name, and each
; function calling an external function without a rule holds references
; to that function's published registrations (dead freezes, deleted by the
; next simplification), so a module importing the function imports them.
; RUN: %opt %loadenzyme -passes=enzyme-lto-prelink -S %s | %FileCheck %s

declare double @act(double)
declare double @sin(double)
define internal { double, double } @act_aug(double %x) {
  ret { double, double } zeroinitializer
}
define internal double @act_rev(double %x, double %d, double %t) {
  ret double %d
}
@__enzyme_register_gradient_act = global [3 x ptr] [ptr @act, ptr @act_aug, ptr @act_rev]

define double @model(double %x) {
  %a = call double @act(double %x)
  %s = call double @sin(double %a)
  ret double %s
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"EnableSplitLTOUnit", i32 0}

; CHECK: @__enzyme_register_gradient_lto.act = weak_odr constant [3 x ptr] [ptr @act, ptr @act_aug, ptr @act_rev]
; CHECK-LABEL: define double @model(double %x)
; CHECK-NEXT: freeze ptr @__enzyme_register_gradient_lto.act
; CHECK-NEXT: freeze ptr @__enzyme_register_derivative_lto.act
; CHECK-NEXT: freeze ptr @__enzyme_inactivefn_lto.act
; CHECK-NOT: freeze ptr @"{{.*}}sin"
; CHECK: call double @act(double %x)
