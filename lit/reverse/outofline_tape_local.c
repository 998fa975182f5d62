// modes/reverse/tapelocal.rs: a sweep left a call (ENZYME_RS_NO_INLINE=1)
// keeps the tape object in a local copy that SROA promotes: the reverse
// sweep of f reads the top once on entry, moves it in a register through
// its loop and stores it back once before returning (no store to the
// tape parameter in the loop). h's loop calls sq's reverse sweep, which
// pops the same tape: that call must get the caller's tape object, not
// the local copy, with the top stored before it and read back after it.
// ENZYME_RS_TAPE_LOCAL=0 keeps the top in memory (a store per iteration).
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O1 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_TAPE_LOCAL=0 %clang -O1 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
#include <enzyme/enzyme.h>

static double f(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; i++) s = s * x[i] + 1;
  return s;
}

void grad(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

__attribute__((noinline)) static double sq(double v) {
  double w = v * v;
  return w * v + w;
}

static double h(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; i++) s = s * sq(x[i]) + 1;
  return s;
}

void grad_h(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)h, enzyme_dup, x, g, enzyme_const, n);
}

// CHECK-LABEL: define internal void @enzyme_rs.rev.h(ptr %0, ptr %1, i32 %2, double %3, ptr %4)
// CHECK: %[[TOP:[0-9]+]] = getelementptr {{({ ptr, i64, i64, i64 }, ptr %4, i64 0, i32 1|i8, ptr %4, i64 8)}}
// CHECK: store i64 %{{[0-9]+}}, ptr %[[TOP]]
// CHECK-NEXT: call double @enzyme_rs.rev.sq(double %{{[0-9]+}}, double %{{[0-9]+}}, ptr nonnull %4)
// CHECK-NEXT: load ptr, ptr %4
// CHECK-NEXT: load i64, ptr %[[TOP]]
// CHECK: ret void

// CHECK-LABEL: define internal void @enzyme_rs.rev.f(ptr %0, ptr %1, i32 %2, double %3, ptr %4)
// CHECK: %[[T:[0-9]+]] = getelementptr {{({ ptr, i64, i64, i64 }, ptr %4, i64 0, i32 1|i8, ptr %4, i64 8)}}
// CHECK-NEXT: %[[START:[0-9]+]] = load i64, ptr %[[T]]
// CHECK-NOT: store i64 %{{[0-9]+}}, ptr %[[T]]
// CHECK: %[[END:[0-9]+]] = phi i64 [ %[[START]], %5 ],
// CHECK-NEXT: store i64 %[[END]], ptr %[[T]]
// CHECK-NEXT: ret void

// OFF-LABEL: define internal void @enzyme_rs.rev.f(
// OFF: %[[TOP:[0-9]+]] = getelementptr {{({ ptr, i64, i64, i64 }, ptr %4, i64 0, i32 1|i8, ptr %4, i64 8)}}
// OFF: store i64 %{{[0-9]+}}, ptr %[[TOP]]
// OFF: phi i64
// OFF: load i64, ptr %[[TOP]]
// OFF-NEXT: add i64 %{{[0-9]+}}, -8
// OFF-NEXT: store i64 %{{[0-9]+}}, ptr %[[TOP]]
// OFF: ret void
