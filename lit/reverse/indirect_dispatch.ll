; RUN: env ENZYME_RS_DROP_DEAD=0 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; An active indirect call whose target is unknown goes through a dispatcher
; over the address-taken functions of its type (@sq, @cube and @sin, which
; the rule table knows; @unused_decl has no derivative and is left out), and
; the dispatcher is differentiated like any callee. Other targets abort.
; (The dispatcher itself is unused once its pair exists: ENZYME_RS_DROP_DEAD=0
; keeps it to show its body.)

declare double @__enzyme_autodiff(ptr, ...)
declare double @sin(double)
declare double @unused_decl(double)

@table = global [4 x ptr] [ptr @sq, ptr @cube, ptr @sin, ptr @unused_decl]

define double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @cube(double %x) {
  %s = fmul double %x, %x
  %r = fmul double %s, %x
  ret double %r
}

define double @f(double %x, i64 %k) {
  %p = getelementptr [4 x ptr], ptr @table, i64 0, i64 %k
  %fp = load ptr, ptr %p
  %r = call double %fp(double %x)
  ret double %r
}

define double @test(double %x, i64 %k) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i64 %k)
  ret double %d
}

; CHECK-LABEL: define internal double @enzyme_rs.aug.f(
; CHECK: call double @enzyme_rs.aug.enzyme_rs.dispatch.open.sin.sq.cube(ptr %fp, ptr @enzyme_rs.dispatch.site{{[.0-9]*}}, double %x, ptr %tape)
; CHECK-LABEL: define internal double @enzyme_rs.rev.f(
; CHECK: call double @enzyme_rs.rev.enzyme_rs.dispatch.open.sin.sq.cube(ptr undef, ptr {{[^,]+}}, double %x, double
; CHECK-LABEL: define internal double @enzyme_rs.dispatch.open.sin.sq.cube(ptr %0, ptr %1, double %2)
; CHECK: icmp eq ptr %0, @sin
; CHECK: call double @sin(double %2)
; CHECK: icmp eq ptr %0, @sq
; CHECK: call double @sq(double %2)
; CHECK: icmp eq ptr %0, @cube
; CHECK: call double @cube(double %2)
; CHECK-NOT: @unused_decl
; CHECK: call void @enzyme_rs.unknown_target(ptr %1, ptr %0)
; CHECK-NEXT: unreachable
