// selfargs::drop_unused: a recursive derivative's parameters that nothing
// reads any more (the shadows its augmented sweep only handed on to
// itself, the primal pointers of its reverse sweep) leave its signature.
// fft_rec's sweeps go from nine parameters to six (all passed in
// registers). Must not: cube_rec's augmented sweep keeps its tape, its
// reverse sweep the tape, the shadows and the adjoint it reads.
// ENZYME_RS_DROP_PARAMS=0 keeps every parameter.
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s
// RUN: env ENZYME_RS_DROP_PARAMS=0 %clang -O2 -S -emit-llvm -fpass-plugin=%plugin -I%include %s -o - | %FileCheck %s --check-prefix=OFF
#include <enzyme/enzyme.h>
#include <stdlib.h>

#include "../../tests/programs/fftsort/fft_kernel.h"

double f(const double *x, const double *tw, int n) {
  double *X = malloc(sizeof(double) * 2 * n);
  fft_rec(x, 1, X, n, tw, 1);
  double s = 0;
  for (int k = 0; k < n; k++) s += X[2 * k] * X[2 * k] + X[2 * k + 1] * X[2 * k + 1];
  free(X);
  return s;
}

static double cube_rec(const double *x, double *scratch, int n) {
  if (n == 0) return 0;
  scratch[0] = x[0] * x[0];
  return scratch[0] * x[0] + cube_rec(x + 1, scratch + 1, n - 1);
}
double g(const double *x, double *scratch, int n) { return cube_rec(x, scratch, n); }

void grad(const double *x, double *dx, const double *tw, int n, double *sc, double *dsc) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, tw, n);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_dup, sc, dsc, n);
}

// CHECK-DAG: define internal {{.*}}double @enzyme_rs.aug.cube_rec(ptr{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,)]*}})
// CHECK-DAG: define internal void @enzyme_rs.rev.cube_rec(ptr{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, double{{[^,]*}}, ptr{{[^,)]*}})
// CHECK-DAG: define internal void @enzyme_rs.aug.fft_rec(ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,)]*}})
// CHECK-DAG: define internal void @enzyme_rs.rev.fft_rec(ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,)]*}})

// OFF-DAG: define internal {{.*}}double @enzyme_rs.aug.cube_rec(ptr{{[^,]*}}, ptr{{[^,]*}}, ptr{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,)]*}})
// OFF-DAG: define internal void @enzyme_rs.aug.fft_rec(ptr{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,)]*}})
// OFF-DAG: define internal void @enzyme_rs.rev.fft_rec(ptr{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,]*}}, i32{{[^,]*}}, ptr{{[^,)]*}})
