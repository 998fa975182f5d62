// A block reduction through shared memory, NVPTX: the reverse sweep has the
// barriers again, the shared array a shadow in shared memory (addrspace 3,
// undef, zeroed by the block before the augmented sweep, then a barrier),
// adjoints added into shared and global memory atomically, the tape in a
// local buffer (no thread-local cache), and llc accepts the result.
// (LLVM 21+ spells __syncthreads() llvm.nvvm.barrier.cta.sync.aligned.all.)
// RUN: %clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O1 -I%S/../../tests/gpu -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenzyme -passes=enzyme -enzyme-rs-no-cleanup -S %t.ll -o %t.d.ll
// RUN: %FileCheck %s < %t.d.ll
// RUN: %FileCheck --check-prefix=REV %s < %t.d.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.d.ll -o /dev/null
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
// CHECK-NEXT: call void @{{llvm.nvvm.barrier0\(\)|llvm.nvvm.barrier.cta.sync.aligned.all\(i32 0\)}}
// CHECK-NOT: @enzyme_rs.tape.take
// CHECK: call {{.*}}@enzyme_rs.aug.
// CHECK: call {{.*}}@enzyme_rs.rev.
// The reverse sweep: both barriers again (no more), the shared shadow's
// adjoints and the global ones added atomically, libdevice's cosine.
// CHECK-LABEL: define internal {{.*}}@enzyme_rs.rev.
// CHECK-DAG: atomicrmw fadd ptr {{.*}}@[[S]]_shadow
// CHECK-DAG: call double @__nv_cos(
// REV-LABEL: define internal {{.*}}@enzyme_rs.rev.
// REV-COUNT-2: call void @{{llvm.nvvm.barrier0\(\)|llvm.nvvm.barrier.cta.sync.aligned.all\(i32 0\)}}
// REV-NOT: call void @{{llvm.nvvm.barrier0\(\)|llvm.nvvm.barrier.cta.sync.aligned.all\(i32 0\)}}
// REV: define internal
// CHECK-LABEL: define internal void @enzyme_rs.gpu.zero_shared(
// CHECK: @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK: @llvm.nvvm.read.ptx.sreg.ntid.x()
