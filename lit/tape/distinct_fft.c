// A recursive FFT's output block is a fresh allocation of the caller that
// nothing else reaches: the call site proves it distinct (part of the
// derivative's key), so the twiddle table is known not to be written and
// the butterflies tape nothing; the recursive calls share that key. When
// the caller passes one block as both table and output, the table is taped.
// RUN: %clang -O0 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %clang -O2 -c -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -I%include -mllvm -enzyme-print-tape %s -o /dev/null 2>&1 | %FileCheck %s
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.mirror
// CHECK: per innermost iteration: 16 bytes
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.fft_rec
// CHECK-NOT: loop depth {{[1-9]}}
// CHECK: per innermost iteration: 0 bytes
// CHECK-LABEL: enzyme-rs tape: enzyme_rs.aug.fft_obj
// CHECK-NOT: enzyme_rs.aug.fft_rec
#include <enzyme/enzyme.h>
#include <stdlib.h>

#include "../../tests/programs/fftsort/fft_kernel.h"

typedef struct { int n; const double *tw; } ctx_t;

double fft_obj(const double *x, const ctx_t *c) {
  double *X = malloc(sizeof(double) * 2 * c->n);
  fft_rec(x, 1, X, c->n, c->tw, 1);
  double f = 0;
  for (int k = 0; k < c->n; k++) f += X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1];
  free(X);
  return f;
}

__attribute__((noinline)) static void mirror(const double *x, const double *tw, double *out, int n) {
  for (int i = 0; i < n; i++) {
    double t = tw[i];
    out[n - 1 - i] = t * t * x[i];
  }
}

double same_block(const double *x, int n) {
  double *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) b[i] = x[i];
  mirror(x, b, b, n);
  double f = 0;
  for (int i = 0; i < n; i++) f += b[i];
  free(b);
  return f;
}

void g(const double *x, double *dx, const ctx_t *c) {
  __enzyme_autodiff((void *)fft_obj, enzyme_dup, x, dx, enzyme_const, c);
}
void g2(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)same_block, enzyme_dup, x, dx, enzyme_const, n);
}
