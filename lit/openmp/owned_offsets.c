// A three-point stencil over restrict arrays: the reverse region adds the
// adjoints of x[i-1], x[i], x[i+1] plainly inside the thread's chunk
// (a store of the sum, not only atomic adds) and atomically only near its
// ends, on both LLVMs: clang-22 writes x[i + 1] as a byte offset from
// &x[i] (getelementptr i8, &x[i], 16), which is still element i + 1.
// RUN: %clang -O2 -fopenmp -I%include -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s
#include <enzyme/enzyme.h>

void step(const double *restrict x, double *restrict y, long n) {
#pragma omp parallel for
  for (long i = 1; i < n - 1; i++) y[i] = x[i - 1] * x[i + 1] + x[i];
}

void grad(const double *x, double *dx, double *y, double *dy, long n) {
  __enzyme_autodiff((void *)step, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// CHECK-LABEL: define internal void @enzyme_rs.rev.enzyme_rs.omp.slots.{{.*}}omp_outlined
// CHECK-DAG: store double %{{[0-9]+}}, ptr
// CHECK-DAG: atomicrmw fadd ptr
// CHECK: ret void
