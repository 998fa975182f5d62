// Thread-private adjoints, NVPTX: an element out[gid] (gid = blockIdx.x *
// blockDim.x + threadIdx.x) that the function stores and only ever
// accesses at gid gets a plain adjoint update; in[gid], only read (a grid
// with a second dimension may have two threads reading it), and any
// element also accessed at another index, are added atomically.
// RUN: %clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O1 -I%S/../../tests/gpu -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenzyme -passes=enzyme -enzyme-rs-no-cleanup -S %t.ll -o %t.d.ll
// RUN: %FileCheck --check-prefix=MINE %s < %t.d.ll
// RUN: %FileCheck --check-prefix=SHARED %s < %t.d.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.d.ll -o /dev/null
#include "gpu.h"
// out[i] private: only din[i] is atomic.
__device__ void mine(double *in, double *out, int n) {
  int i = GTID_X;
  out[i] = in[i] * out[i];
}
// out[i + 1] read by thread i, out[i] written by thread i: all atomic.
__device__ void shared(double *in, double *out, int n) {
  int i = GTID_X;
  out[i] = in[i] * out[(i + 1) % n];
}
GPU_TEST(mine)
extern "C" __global__ void grad2(double *in, double *din, double *out, double *dout, int n) {
  __enzyme_autodiff((void *)shared, enzyme_dup, in, din, enzyme_dup, out, dout, enzyme_const, n);
}
// MINE-LABEL: define internal {{.*}}@enzyme_rs.rev._Z4minePdS_i(
// MINE-COUNT-1: atomicrmw fadd
// MINE-NOT: atomicrmw
// MINE: ret
// SHARED-LABEL: define internal {{.*}}@enzyme_rs.rev._Z6sharedPdS_i(
// SHARED-COUNT-2: atomicrmw fadd
// SHARED: ret
