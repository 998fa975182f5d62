// Device math on AMDGPU: OCML's functions share the C library's rules,
// and the derivatives call OCML (never unselectable f64 intrinsics or C
// math names); llc for gfx90a accepts it.
// RUN: %clang -x hip --cuda-device-only -nogpulib -nogpuinc --offload-arch=gfx90a -O2 -I%S/../../tests/gpu -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o %t.ll
// RUN: %FileCheck %s < %t.ll
// RUN: llc -march=amdgcn -mcpu=gfx90a %t.ll -o /dev/null
#include "gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  double x = in[i];
  out[i] = MATH(tanh)(x) + MATH(pow)(x, 1.5) + __builtin_sin(x) + MATH(cosh)(x);
}
GPU_TEST(f)
// CHECK-NOT: @llvm.sin.f64
// CHECK-NOT: @llvm.cos.f64
// CHECK-NOT: declare double @cosh(
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK-DAG: call {{.*}}double @__ocml_cos_f64(
// CHECK-DAG: call {{.*}}double @__ocml_sinh_f64(
// CHECK-DAG: call {{.*}}double @__ocml_pow_f64(
