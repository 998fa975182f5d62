// Synchronization across blocks (cooperative groups' grid.sync()) cannot
// be mirrored in a kernel's reverse: a compile error with the line.
// RUN: not %clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O1 -g -I%S/../../tests/gpu -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o /dev/null 2>&1 | %FileCheck %s
#include "gpu.h"
extern "C" __device__ unsigned long long cudaCGGetIntrinsicHandle(unsigned);
extern "C" __device__ int cudaCGSynchronizeGrid(unsigned long long, unsigned);
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  out[i] = in[i] * in[i];
  cudaCGSynchronizeGrid(cudaCGGetIntrinsicHandle(1), 0);
  out[i] += in[(i + 1) % n];
}
GPU_TEST(f)
// CHECK: error: enzyme-rs: cannot differentiate: GPU device code: grid-wide synchronization (a barrier across blocks) is not supported
// CHECK: errors_grid_sync.c:10
