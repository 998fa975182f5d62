// A warp shuffle in differentiated device code is a compile error naming
// it, with the source line (never a crash, never a silent zero).
// RUN: not %clang -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O1 -g -I%S/../../tests/gpu -fplugin=%plugin -fpass-plugin=%plugin -S -emit-llvm %s -o /dev/null 2>&1 | %FileCheck %s
#include "gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  float v = (float)in[i];
  v += __nvvm_shfl_sync_down_f32(0xffffffff, v, 1, 31);
  out[i] = v;
}
GPU_TEST(f)
// CHECK: error: enzyme-rs: cannot differentiate: GPU device code: a warp shuffle (__shfl_*) is not supported
// CHECK: errors_shuffle.c:8
