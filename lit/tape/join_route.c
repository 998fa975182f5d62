// A recursive FFT returns early for m == 1; its other path runs the
// butterfly loop (or skips it). The reverse sweep of the return block needs
// which of the three ways was taken: it follows from `m == 1` and `m > 1`,
// comparisons of an argument, so it is recomputed (joinroute.rs) and
// fft_rec keeps no tape; with ENZYME_RS_ROUTE_JOINS=0 an i8 index per call
// goes on the tape. A join decided by a product computed below the
// dominator keeps its index on the tape either way.
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: env ENZYME_RS_ROUTE_JOINS=0 %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=OFF
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.below
// CHECK: i8 ]
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.fft_rec
// CHECK-NEXT: per innermost iteration: 0 bytes
// OFF-LABEL: enzyme-rs tape: enzyme_rs.aug.fft_rec
// OFF-NEXT: (loop depth 0): 8 bytes [i8 ]
#include <enzyme/enzyme.h>
#include <stdlib.h>

#include "../../tests/programs/fftsort/fft_kernel.h"

double fft_obj(const double *x, const double *tw, int n) {
  double *X = malloc(sizeof(double) * 2 * n);
  fft_rec(x, 1, X, n, tw, 1);
  double f = 0;
  for (int k = 0; k < n; k++) f += X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1];
  free(X);
  return f;
}

__attribute__((noinline)) double below(const double *x, int mode) {
  double r;
  if (mode == 1) {
    r = x[0];
  } else {
    double t = x[1] * x[2];
    if (t > 0.05)
      r = t * x[3];
    else
      r = x[4] * x[5];
  }
  return r * r;
}

void grads(const double *x, double *dx, const double *tw, int n) {
  __enzyme_autodiff((void *)fft_obj, enzyme_dup, x, dx, enzyme_const, tw, enzyme_const, n);
  __enzyme_autodiff((void *)below, enzyme_dup, x, dx, enzyme_const, 0);
}
