// rev/loops.rs, end to end: insertion sort's inner loop
// `while (j >= 0 && s[j] > key)` has two exiting blocks. Its moves are
// recorded (moverec.rs), so the reverse of the loop undoes nothing and is
// only a count-down from the taped trip count. Entered through one landing
// block, that count-down is a natural loop, and loop deletion removes it
// with the outer loop's reverse: the reverse sweep reads nothing of the
// loop's record (the only i64 it loads is the tape's top). With
// ENZYME_RS_ONE_LOOP_ENTRY=0 the reverse loop is irreducible until late
// simplifycfg, after loop deletion: an empty count-down loop stays.
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_ONE_LOOP_ENTRY=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_ONE_LOOP_ENTRY=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
#include <enzyme/enzyme.h>
#include <stdlib.h>

static double f(const double *x, int n, const double *w) {
  double *s = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) s[i] = x[i];
  for (int i = 1; i < n; i++) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) { s[j + 1] = s[j]; j--; }
    s[j + 1] = key;
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += w[i] * s[i];
  free(s);
  return r;
}

void grad(const double *x, double *g, int n, const double *w) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n, enzyme_const, w);
}

// CHECK-LABEL: define internal void @enzyme_rs.rev.enzyme_rs.moves.f(
// CHECK: load i64
// CHECK-NOT: load i64
// CHECK: ret void

// OFF-LABEL: define internal void @enzyme_rs.rev.enzyme_rs.moves.f(
// OFF: load i64
// OFF: %[[C:[0-9]+]] = load i64
// OFF: %[[P:[0-9]+]] = phi i64 {{.*}}[ %[[C]], %{{[0-9]+}} ]
// OFF-NEXT: icmp eq i64 %[[P]], 0
// OFF: add i64 %[[P]], -1
// OFF-NEXT: br label
// OFF: ret void
