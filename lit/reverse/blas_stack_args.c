// A Fortran BLAS call reads its counts and strides through pointers; the
// runtime's reverse (runtime/blas/) reads them again in the reverse sweep,
// after the augmented sweep's frame is gone. Stack slots whose address
// reaches a BLAS call therefore move to the heap in the augmented sweep
// and are freed after the reverse call (modes/reverse/promote.rs); the
// tape must never carry a pointer into a dead frame.
// RUN: env ENZYME_RS_NO_INLINE=1 %clang -O0 -fno-discard-value-names -S -emit-llvm -fpass-plugin=%plugin %s -o - | %FileCheck %s

void dcopy_(const int *n, const double *x, const int *incx, double *y, const int *incy);
extern double __enzyme_autodiff(void *, ...);
int enzyme_dup;

double loss(const double *x) {
  double y[4];
  int n = 4, inc = 1;
  dcopy_(&n, x, &inc, y, &inc);
  return y[0] * y[1] + y[2] * y[3];
}

void grad(const double *x, double *dx) { __enzyme_autodiff((void *)loss, enzyme_dup, x, dx); }

// CHECK-LABEL: define internal double @enzyme_rs.aug.loss(
// CHECK-NOT: alloca i32
// CHECK-DAG: %n.heap = call ptr @malloc(i64 4)
// CHECK-DAG: %inc.heap = call ptr @malloc(i64 4)
// CHECK: call void @enzyme_rs.aug.dcopy_(ptr %n.heap,
// CHECK: store ptr %n.heap,
// CHECK-LABEL: define internal void @enzyme_rs.rev.loss(
// CHECK: call void @enzyme_rs.rev.dcopy_(ptr %n.heap.tape,
// CHECK-DAG: call void @free(ptr %n.heap.tape)
// CHECK-DAG: call void @free(ptr %inc.heap.tape)
