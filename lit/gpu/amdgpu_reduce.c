// The block reduction as HIP for AMDGPU: barriers mirrored with HIP's
// fences around them, the shared shadow in addrspace 3, the tape object a
// generic pointer (allocas are private, addrspace 5), OCML's cosine, atomic
// adjoints; llc for gfx90a accepts it.
// RUN: %clang -x hip --cuda-device-only -nogpulib -nogpuinc --offload-arch=gfx90a -O1 -I%S/../../tests/gpu -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenzyme -passes=enzyme -enzyme-rs-no-cleanup -S %t.ll -o %t.d.ll
// RUN: %FileCheck %s < %t.d.ll
// RUN: %FileCheck --check-prefix=REV %s < %t.d.ll
// RUN: llc -march=amdgcn -mcpu=gfx90a %t.d.ll -o /dev/null
#include "gpu.h"
__device__ void f(double *in, double *out, int n) {
  __shared__ double s[64];
  unsigned t = threadIdx.x, i = GTID_X;
  double v = MATH(sin)(in[i]);
  s[t] = v * v;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
GPU_TEST(f)

// CHECK-NOT: thread_local
// CHECK: @[[S:.*]]_shadow = internal addrspace(3) global [64 x double] undef
// CHECK-LABEL: define {{.*}}void @grad(
// CHECK: call void @enzyme_rs.gpu.zero_shared(ptr addrspace(3) @[[S]]_shadow, i32 512)
// CHECK-NEXT: fence release
// CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
// CHECK-NEXT: fence acquire
// CHECK-NOT: @enzyme_rs.tape.take
// CHECK: call void @enzyme_rs.aug.{{.*}}, ptr %
// CHECK: call {{.*}}@enzyme_rs.rev.{{.*}}, ptr %
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.rev.
// CHECK-DAG: atomicrmw fadd ptr {{.*}}@[[S]]_shadow
// CHECK-DAG: call double @__ocml_cos_f64(
// REV-LABEL: define internal {{.*}}@enzyme_rs.rev.
// REV-COUNT-2: call void @llvm.amdgcn.s.barrier()
// REV-NOT: call void @llvm.amdgcn.s.barrier()
// REV: define internal
