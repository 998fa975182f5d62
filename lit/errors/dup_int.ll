; RUN: not %opt %loadenzyme -passes=enzyme -S %s -o /dev/null 2>&1 | %FileCheck %s

@enzyme_dup = external global i32

declare double @__enzyme_fwddiff(ptr, ...)

define double @f(double %x, i32 %n) {
  %c = sitofp i32 %n to double
  %m = fmul double %x, %c
  ret double %m
}

define double @test(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, ptr @enzyme_dup, i32 3, i32 4)
  ret double %d
}

; CHECK: error: {{.*}}argument 2 (i32) of 'f' cannot be enzyme_dup: an integer carries no derivative
