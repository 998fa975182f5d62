// Two worksharing loops in one region, separated by the implicit barrier:
// the reverse of the region has the barrier again, between the two loops'
// reverses; a map reading x[i] only adds its adjoint plainly (the element
// belongs to the iteration), the stencil reading y[i-1], y[i+1] atomically.
// clang-16 names the outlined regions .omp_outlined..1 (two) and
// .omp_outlined. (map), clang-22 two.omp_outlined and map.omp_outlined:
// the patterns take both.
// RUN: %clang -O1 -fopenmp -I%include -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenzyme -passes=enzyme -enzyme-rs-no-cleanup -S %t.ll | %FileCheck %s
#include <enzyme/enzyme.h>

void map(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
}

void two(const double *x, double *y, double *z, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
#pragma omp for
    for (int i = 1; i < n - 1; i++) z[i] = y[i - 1] * y[i + 1];
  }
}

void g1(double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)map, x, dx, y, dy, n);
}
void g2(double *x, double *dx, double *y, double *dy, double *z, double *dz, int n) {
  __enzyme_autodiff((void *)two, x, dx, y, dy, z, dz, n);
}

// CHECK-LABEL: define internal void @enzyme_rs.rev.enzyme_rs.omp.slots.{{(two)?\.omp_outlined(\.\.1)?}}(
// CHECK: call void @__kmpc_barrier(
// CHECK: atomicrmw fadd
// CHECK: ret void

// CHECK-LABEL: define internal void @enzyme_rs.rev.enzyme_rs.omp.slots.{{(map)?\.omp_outlined\.?}}(
// CHECK-NOT: atomicrmw
// CHECK: ret void
