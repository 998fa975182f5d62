// LAUNCH: grid=2 block=32 nin=64 nout=64 n=64
// Math the way clang emits it without libdevice: LLVM intrinsics
// (sqrt, fma, fabs, sin, exp) from builtins.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  int i = GTID_X;
  double x = in[i];
  out[i] = __builtin_sqrt(x) * __builtin_fma(x, x, 1.0) + __builtin_fabs(x - 1.0) * x +
           __builtin_sin(x) + __builtin_exp(0.5 * x);
}
GPU_TEST(f)
