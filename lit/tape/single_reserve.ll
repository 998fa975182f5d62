; RUN: %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s
; RUN: env ENZYME_RS_TAPE_LIBM=1 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s --check-prefix=LIBM
; RUN: env ENZYME_RS_TAPE_REGION=0 %opt %loadenzyme -passes=enzyme -S %s | %FileCheck %s --check-prefix=OFF
; A straight-line function with branches (the shape clang's errno guards
; give libm calls): every block of the augmented sweep lies on no cycle and
; makes no call that pushes onto the tape, so the entry makes room for all
; of their pushes once (enzyme_rs.tape.ensure) and each block bumps the top
; unchecked (enzyme_rs.tape.bump) instead of a capacity check with a
; realloc branch per block.

@enzyme_const = external global i32, align 4

declare double @__enzyme_autodiff(ptr, ...)
declare double @exp(double)
declare double @sin(double)

define double @f(double %x, double %y) {
entry:
  %a = call double @exp(double %x)
  %c = fcmp ogt double %a, 2.0
  br i1 %c, label %then, label %else

then:
  %b = call double @sin(double %a)
  %m = fmul double %b, %y
  br label %join

else:
  %e = call double @exp(double %y)
  %m2 = fmul double %e, %a
  br label %join

join:
  %p = phi double [ %m, %then ], [ %m2, %else ]
  %s = call double @sin(double %p)
  %q = fmul double %s, %p
  %c2 = fcmp ogt double %q, 0.5
  br i1 %c2, label %then2, label %join2

then2:
  %r = fmul double %q, %q
  br label %join2

join2:
  %p2 = phi double [ %r, %then2 ], [ %q, %join ]
  %z = fmul double %p2, %p2
  ret double %z
}

define double @g(double %x, double %y) {
entry:
  %k = load i32, ptr @enzyme_const, align 4
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %k, double %y)
  ret double %d
}

; CHECK-LABEL: define internal double @enzyme_rs.aug.f(double %x, double %y, ptr %tape)
; CHECK-NEXT: entry:
; CHECK-NEXT: call ptr @enzyme_rs.tape.ensure(ptr %tape, i64 32)
; CHECK-NOT: enzyme_rs.tape.reserve
; CHECK: join:
; CHECK: [[J:%[0-9]+]] = call ptr @enzyme_rs.tape.bump(ptr %tape, i64 8)
; CHECK-NEXT: getelementptr i8, ptr [[J]], i64 0
; CHECK-NEXT: store double %p
; CHECK: then2:
; CHECK-NOT: enzyme_rs.tape.reserve
; CHECK: call ptr @enzyme_rs.tape.bump(ptr %tape, i64 8)
; CHECK: join2:
; CHECK-NOT: enzyme_rs.tape.reserve
; CHECK: call ptr @enzyme_rs.tape.bump(ptr %tape, i64 16)
; CHECK-NOT: enzyme_rs.tape.reserve
; CHECK: ret double %z

; The reverse sweep pops as before, block by block.
; CHECK-LABEL: define internal double @enzyme_rs.rev.f(
; CHECK-DAG: call ptr @enzyme_rs.tape.pop(ptr %tape, i64 16)
; CHECK-DAG: call ptr @enzyme_rs.tape.pop(ptr %tape, i64 8)
; CHECK-DAG: call ptr @enzyme_rs.tape.pop(ptr %tape, i64 8)
; CHECK: ret double

; ensure makes room without moving the top; bump moves the top with no
; capacity check.
; CHECK-LABEL: define internal ptr @enzyme_rs.tape.ensure(ptr %0, i64 %1)
; CHECK: call ptr @realloc(
; CHECK-NOT: store i64 %{{[0-9]+}}, ptr %2
; CHECK: ret ptr
; CHECK-LABEL: define internal ptr @enzyme_rs.tape.bump(ptr %0, i64 %1)
; CHECK-NEXT: entry:
; CHECK-NEXT: %2 = getelementptr { ptr, i64, i64, i64 }, ptr %0, i32 0, i32 1
; CHECK-NEXT: %3 = load i64, ptr %2
; CHECK-NEXT: %4 = add i64 %3, %1
; CHECK-NEXT: store i64 %4, ptr %2
; CHECK-NEXT: %5 = load ptr, ptr %0
; CHECK-NEXT: %6 = getelementptr i8, ptr %5, i64 %3
; CHECK-NEXT: ret ptr %6

; ENZYME_RS_TAPE_LIBM=1: the libm results (outside loops) are taped too,
; read back where they are used instead of called again.
; LIBM-LABEL: define internal double @enzyme_rs.aug.f(
; LIBM-NEXT: entry:
; LIBM-NEXT: call ptr @enzyme_rs.tape.ensure(ptr %tape, i64 72)
; LIBM-NOT: enzyme_rs.tape.reserve
; LIBM: ret double %z
; LIBM-LABEL: define internal double @enzyme_rs.rev.f(
; LIBM-NOT: call double @exp(
; LIBM-NOT: @llvm.sin.f64
; LIBM: %s.tape = load double
; LIBM: ret double

; ENZYME_RS_TAPE_REGION=0: a capacity check per pushing block, as before.
; OFF-LABEL: define internal double @enzyme_rs.aug.f(
; OFF-NOT: enzyme_rs.tape.ensure
; OFF-NOT: enzyme_rs.tape.bump
; OFF: call ptr @enzyme_rs.tape.reserve(ptr %tape, i64 8)
; OFF: call ptr @enzyme_rs.tape.reserve(ptr %tape, i64 8)
; OFF: call ptr @enzyme_rs.tape.reserve(ptr %tape, i64 16)
; OFF: ret double %z
