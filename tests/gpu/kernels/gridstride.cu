// LAUNCH: grid=2 block=16 nin=200 nout=200 n=200
// A grid-stride loop: each thread handles every (grid size)-th element.
#include "../gpu.h"
__device__ void f(double *in, double *out, int n) {
  for (int i = GTID_X; i < n; i += blockDim.x * gridDim.x)
    out[i] += in[i] * MATH(exp)(-in[i]) + out[i] * in[i];
}
GPU_TEST(f)
