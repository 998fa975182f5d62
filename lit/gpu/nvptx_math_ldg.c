// Device math and read-only loads, NVPTX: builtins clang turns into LLVM
// intrinsics the backend cannot select for doubles (llvm.sin.f64,
// llvm.exp.f64) and the derivatives' own (llvm.cos.f64) become libdevice
// calls; __ldg (llvm.nvvm.ldg.global.*) loads are differentiated as plain
// loads; the entry points are declared extern "C" with fixed parameters.
// RUN: %clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O2 -I%S/../../tests/gpu -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck %s < %t.ll
// RUN: %FileCheck --check-prefix=G %s < %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o /dev/null
#include "gpu.h"
extern "C" __device__ void __enzyme_autodiff(void *, int, const double *, double *, int, double *,
                                             double *);
extern "C" __device__ void __enzyme_fwddiff(void *, int, const double *, double *, int, double *,
                                            double *);
__device__ void h(const double *x, double *y) {
  int i = GTID_X;
  double v = __nvvm_ldg_d(x + i);
  y[i] = __builtin_sin(v) * __builtin_exp(v);
}
extern "C" __global__ void grad_h(const double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)h, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
extern "C" __global__ void fwd_h(const double *x, double *dx, double *y, double *dy) {
  __enzyme_fwddiff((void *)h, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
// CHECK-NOT: @llvm.sin.f64
// CHECK-NOT: @llvm.cos.f64
// CHECK-NOT: @llvm.exp.f64
// CHECK-LABEL: define {{.*}}void @grad_h(
// CHECK-DAG: call {{.*}}double @__nv_sin(
// CHECK-DAG: call {{.*}}double @__nv_cos(
// CHECK-DAG: call {{.*}}double @__nv_exp(
// CHECK: atomicrmw fadd
// CHECK-LABEL: define {{.*}}void @fwd_h(
// CHECK-DAG: call {{.*}}double @__nv_cos(
// G-LABEL: define {{.*}}void @grad_h(
// G-NOT: llvm.nvvm.ldg
// G: ret void
