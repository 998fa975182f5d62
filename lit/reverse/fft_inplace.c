// In-place shadow (modes/reverse/inplace.rs): the malloc'd block X of the
// FFT objective keeps its shadow dX: the augmented sweep takes no kept
// block and zeroes nothing, the reverse sweep's accumulations store, the
// rest of the block is zeroed (malloc_usable_size) before the FFT's
// reverse, and only X is freed (no give-back). Must not (a kept block of
// its own): X read by a second loop (NEIGH: X[i + 1] beside X[i]; TWICE:
// two loops read X), X stored in a global (ESCAPE), X freed by a helper
// (HELPER: no kept block either), a block of pointers (PTRS: the
// augmented sweep stores their shadows into dX).
// ENZYME_RS_INPLACE_SHADOW=0: the kept block as before.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -DCASE=0 %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_NO_INLINE=1 ENZYME_RS_INPLACE_SHADOW=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -DCASE=0 %s -o - | %FileCheck %s --check-prefix=KEPT
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -DCASE=1 %s -o - | %FileCheck %s --check-prefix=KEPT
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -DCASE=2 %s -o - | %FileCheck %s --check-prefix=KEPT
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -DCASE=3 %s -o - | %FileCheck %s --check-prefix=KEPT
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -DCASE=4 %s -o - | %FileCheck %s --check-prefix=NONE
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include -DCASE=5 %s -o - | %FileCheck %s --check-prefix=KEPT
#include <enzyme/enzyme.h>
#include <stdlib.h>

double *last_block;

#include "../../tests/programs/fftsort/fft_kernel.h"

__attribute__((noinline)) static void release(double *p) { free(p); }

#if CASE == 5
double f(const double *x, const double *tw, const double *w, int n) {
  const double **P = malloc(sizeof(double *) * 2 * n);
  for (int k = 0; k < 2 * n; k++) P[k] = &x[k];
  double s = 0;
  for (int k = 0; k < 2 * n; k++) s += w[k / 2] * *P[k] * *P[k];
  free(P);
  return s;
}
#else
double f(const double *x, const double *tw, const double *w, int n) {
  double *X = malloc(sizeof(double) * 2 * n);
#if CASE == 3
  last_block = X;
#endif
  fft_rec(x, 1, X, n, tw, 1);
  double s = 0;
#if CASE == 1
  for (int k = 0; k + 1 < 2 * n; k++) s += X[k] * X[k + 1];
#else
  for (int k = 0; k < n; k++) s += w[k] * (X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1]);
#endif
#if CASE == 2
  for (int k = 0; k < 2 * n; k++) s += X[k];
#endif
#if CASE == 4
  release(X);
#else
  free(X);
#endif
  return s;
}
#endif

void grad(const double *x, double *dx, const double *tw, const double *w, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, tw, enzyme_const, w, n);
}

// CHECK-LABEL: define internal {{.*}}@enzyme_rs.aug.f(
// CHECK: call {{.*}}ptr @malloc(
// CHECK-NOT: __enzyme_rs_keep_take
// CHECK-NOT: llvm.memset
// CHECK: ret
// CHECK-LABEL: define internal void @enzyme_rs.rev.f(
// CHECK-NOT: __enzyme_rs_keep_give
// CHECK: call i64 @malloc_usable_size(
// CHECK: call void @llvm.memset
// CHECK: call void @enzyme_rs.rev.fft_rec(
// CHECK-NOT: __enzyme_rs_keep_give
// CHECK: call void @free(
// CHECK-NOT: enzyme_rs.inplace.

// KEPT-LABEL: define internal {{.*}}@enzyme_rs.aug.f(
// KEPT: call ptr @__enzyme_rs_keep_take(
// KEPT-LABEL: define internal void @enzyme_rs.rev.f(
// KEPT-NOT: malloc_usable_size
// KEPT: call void @__enzyme_rs_keep_give(
// KEPT-NOT: enzyme_rs.inplace.

// NONE-NOT: malloc_usable_size
// NONE: define internal void @enzyme_rs.rev.f(
// NONE-NOT: malloc_usable_size
// NONE-NOT: enzyme_rs.inplace.
