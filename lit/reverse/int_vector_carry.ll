; Reverse mode through integer vectors that carry a float's bits
; (insertelement, extractelement and shufflevector on <2 x i64>): the
; adjoints are float vectors, and the derivative passes the verifier.
; Found by tests/stress (llvm-stress -size=300 -seed=1, reverse mode).
; RUN: %opt %loadenzyme -passes=enzyme,verify -S %s | %FileCheck %s

@enzyme_dup = external global i32
declare void @__enzyme_autodiff(ptr, ...)

define void @f(ptr %p, ptr %q) {
  %x = load <2 x double>, ptr %p
  %xi = bitcast <2 x double> %x to <2 x i64>
  %e = extractelement <2 x i64> %xi, i32 1
  %v = insertelement <2 x i64> %xi, i64 %e, i32 0
  %s = shufflevector <2 x i64> %v, <2 x i64> %xi, <2 x i32> <i32 3, i32 0>
  %y = bitcast <2 x i64> %s to <2 x double>
  %m = fmul <2 x double> %y, %x
  store <2 x double> %m, ptr %q
  ret void
}

define void @test(ptr %p, ptr %dp, ptr %q, ptr %dq) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_dup, ptr %q, ptr %dq)
  ret void
}

; CHECK: define {{.*}}void @test(
; CHECK-NOT: error
